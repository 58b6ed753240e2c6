import { parentPort, threadId } from 'node:worker_threads';
import { type BacktestSpec, loadBacktestSpec, parseBacktestSpec } from './backtest-spec.ts';
import { MissingDataError } from './missing-data.ts';
import { runBacktest } from './run-backtest.ts';
import type { SweepJob, SweepLog, SweepMissingToken, SweepResult } from './sweep-protocol.ts';

/**
 * Worker thread of a sweep: takes {@link SweepJob} messages, runs each backtest (one at
 * a time: a worker is one core) and posts a {@link SweepResult} back.
 */
const port = parentPort;
if (port === null) throw new Error('sweep-worker.ts runs as a worker thread');
/** The parent's end (not null from here on, in closures too). */
const toParent = port;
port.on('message', (job: SweepJob) => {
  void run(job).then((result) => port.postMessage(result));
});

async function run(job: SweepJob): Promise<SweepResult> {
  try {
    const spec = await specOf(job);
    const result = await runBacktest(spec, {
      params: job.params,
      allowMissing: job.allowMissing === true,
      // Log lines go to the parent, which prints them above its progress bar.
      logSink: {
        write: (text: string) =>
          toParent.postMessage({ type: 'log', id: job.id, text } satisfies SweepLog),
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
        worker: threadId,
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
      worker: threadId,
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
      worker: threadId,
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
