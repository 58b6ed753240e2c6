import { parentPort, threadId, Worker } from 'node:worker_threads';
import { type BacktestSpec, loadBacktestSpec, parseBacktestSpec } from './backtest-spec.ts';
import { MissingDataError } from './missing-data.ts';
import { runBacktest } from './run-backtest.ts';
import type { SweepJob, SweepLog, SweepMissingToken, SweepResult } from './sweep-protocol.ts';

/**
 * A sweep's worker: a worker thread ({@link import('./thread-pool.ts')}) or a forked child
 * process ({@link import('./process-pool.ts')}). It takes {@link SweepJob} messages, runs
 * each backtest (one at a time: a worker is one core) and posts a {@link SweepResult} back,
 * over the thread's port or the process's IPC channel (the same plain-JSON messages).
 */
const port = parentPort;
const send = process.send?.bind(process);
if (port === null && send === undefined)
  throw new Error('sweep-worker runs as a worker thread or a forked child process');
/** The parent's end, whichever kind. */
const toParent = (m: SweepResult | SweepLog): void => {
  if (port !== null) port.postMessage(m);
  else send?.(m);
};
/** Who ran a job, as the results say: the thread's id, or the child process's pid. */
const workerId = port !== null ? threadId : process.pid;
const onJob = (job: SweepJob): void => {
  void run(job).then(toParent);
};
if (port !== null) port.on('message', onJob);
else {
  process.on('message', onJob);
  // The parent went (closed the pool, exited, or was killed, even by SIGKILL): its IPC
  // channel closes, and a child never outlives it running a job nobody will read.
  process.on('disconnect', () => process.exit(0));
  watchParent();
}

/**
 * Kills this process when its parent is gone, even while a job holds the main thread
 * (a strategy in an endless loop never lets 'disconnect' run): a small thread, asleep
 * but for a look at the parent's pid twice a second (an orphan is adopted by another).
 */
function watchParent(): void {
  const watcher = new Worker(
    `const { ppid } = require('node:worker_threads').workerData;
const nap = new Int32Array(new SharedArrayBuffer(4));
while (process.ppid === ppid) Atomics.wait(nap, 0, 0, 500);
process.kill(process.pid, 'SIGKILL');`,
    { eval: true, workerData: { ppid: process.ppid } },
  );
  watcher.unref();
}

async function run(job: SweepJob): Promise<SweepResult> {
  try {
    const spec = await specOf(job);
    const result = await runBacktest(spec, {
      params: job.params,
      allowMissing: job.allowMissing === true,
      // Log lines go to the parent, which prints them above its progress bar.
      logSink: {
        write: (text: string) => toParent({ type: 'log', id: job.id, text }),
        isTTY: job.logTTY === true,
      },
    });
    // A run whose strategy failed has no result worth ranking: it is a failed run (last).
    const failures = Object.entries(result.failures ?? {});
    if (failures.length > 0)
      return {
        type: 'result',
        id: job.id,
        params: job.params,
        ok: false,
        error: failures.map(([id, why]) => `strategy ${id} failed: ${why}`).join('; '),
        worker: workerId,
      };
    return {
      type: 'result',
      id: job.id,
      params: job.params,
      ok: true,
      summary: result.summary,
      elapsedMs: result.elapsedMs,
      ...(result.missingData === undefined
        ? {}
        : { missing: result.missingData.missing.map(namedToken) }),
      worker: workerId,
    };
  } catch (err) {
    return {
      type: 'result',
      id: job.id,
      params: job.params,
      ok: false,
      error: err instanceof Error ? err.message : String(err),
      ...(err instanceof MissingDataError
        ? { reason: 'missing-data' as const, missing: err.report.missing.map(namedToken) }
        : {}),
      worker: workerId,
    };
  }
}

/**
 * The job's spec: its text parsed as `specFile` when it carries one (a queued job), else
 * the file read; with `dataDir`, that folder replaces `backtest.data`.
 */
async function specOf(job: SweepJob): Promise<BacktestSpec> {
  const spec =
    job.specText === undefined
      ? await loadBacktestSpec(job.specFile)
      : parseBacktestSpec(job.specText, job.specFile);
  if (job.dataDir === undefined) return spec;
  return { ...spec, backtest: { ...spec.backtest, data: job.dataDir } };
}

/** A missing token as the result carries it: the token and its symbol (no instant). */
function namedToken(m: { token: number; symbol?: string }): SweepMissingToken {
  return m.symbol === undefined ? { token: m.token } : { token: m.token, symbol: m.symbol };
}
