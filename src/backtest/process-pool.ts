import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { JobLogSink } from './job-pool.ts';
import { type PoolSlot, SlotPool, ThreadCrashError } from './slot-pool.ts';
import type { SweepJob, SweepLog, SweepResult } from './sweep-protocol.ts';

/**
 * How a child boots: the same entry as the sweep threads', `sweep-worker`, beside this
 * module (in dist/backtest/ and in the bundle's folder alike, where build-bundle.mjs
 * emits it). Run as TypeScript (tests, tsx), the child loads tsx first and then the
 * TypeScript worker.
 */
const COMPILED = import.meta.url.endsWith('.js');
const ENTRY = new URL(COMPILED ? './sweep-worker.js' : './sweep-worker.ts', import.meta.url);
const TS_LOADER = COMPILED ? [] : ['--import', import.meta.resolve('tsx')];

/**
 * The parent's V8 and memory flags a child keeps (the parent's `--import` hooks, a
 * debugger or `--test` flags are the parent's own, and a child running them twice would
 * be wrong: fork passes every one of them by default).
 */
const KEPT_FLAG = /^--(max-old-space-size|max-semi-space-size|stack-size|enable-source-maps)\b/;

/** How long a closed child may take to exit before it is killed. */
const EXIT_GRACE_MS = 3_000;

/** A child of the pool and the task it runs, if any. */
interface Slot extends PoolSlot {
  readonly child: ChildProcess;
  /** Settles once the child has exited. */
  readonly gone: Promise<void>;
}

/** Every live child of every pool: killed if this process exits with them still running. */
const live = new Set<ChildProcess>();
const killLive = (): void => {
  for (const child of live) child.kill('SIGKILL');
};

/**
 * A persistent pool of sweep worker PROCESSES, with {@link ThreadPool}'s interface and
 * messages: at most `size` children (`child_process.fork` of `sweep-worker`), started as
 * jobs need them and kept for later jobs, one job each at a time. Each child has its own
 * heap, garbage collector and compiler threads, so two backtests share nothing but the
 * cores (on the 2-core bench machine, idle: 3% faster than two threads, for about 90 MiB
 * more memory a worker), and a child that crashes or is killed takes no other job with
 * it: it rejects its job with {@link ThreadCrashError} and is replaced for the next one.
 *
 * No child outlives the parent: a child exits when its IPC channel closes (the parent
 * exited, or was killed, even by SIGKILL), and children still running when this process
 * exits are killed.
 *
 * @example
 * ```ts
 * const pool = new ProcessPool(2);
 * const result = await pool.run({ type: 'job', id: 0, specFile, params: { 'sma.fast': 5 } });
 * await pool.close();
 * ```
 */
export class ProcessPool extends SlotPool<Slot> {
  /**
   * @param size most child processes at once (default one per core)
   * @param onLog default sink of the runs' log lines (default stdout); a job may name its own
   */
  constructor(
    size = availableParallelism(),
    onLog: JobLogSink = (text) => void process.stdout.write(text),
  ) {
    super(size, onLog, 'process pool');
  }

  /** The children's process ids (for tests and diagnostics). */
  get pids(): number[] {
    return this.slots.flatMap((s) => s.child.pid ?? []);
  }

  /**
   * Stops the children at once: a job running is cut short (its child killed) and
   * rejects with {@link ThreadCrashError}, jobs waiting reject with
   * {@link ThreadPoolClosedError}; an idle child is let go and exits by itself. Resolves
   * when every child has exited (a child that lingers past a few seconds is killed).
   */
  async close(): Promise<void> {
    const slots = this.shut((slot, task) => {
      if (task === undefined) {
        if (slot.child.connected) slot.child.disconnect();
      } else {
        slot.child.kill('SIGKILL');
        task.reject(new ThreadCrashError(`job ${task.job.id} stopped: process pool closed`));
      }
    });
    await Promise.all(slots.map((s) => exitWithin(s, EXIT_GRACE_MS)));
  }

  protected send(slot: Slot, job: SweepJob): void {
    // A send to a child that just died fails quietly: its close rejects the task.
    slot.child.send(job, (err) => {
      if (err !== null) slot.child.kill('SIGKILL');
    });
  }

  protected spawn(): Slot {
    const child = fork(ENTRY, [], {
      execArgv: [...process.execArgv.filter((f) => KEPT_FLAG.test(f)), ...TS_LOADER],
      serialization: 'json',
    });
    live.add(child);
    if (live.size === 1) process.on('exit', killLive);
    // 'exit', not 'close': Node emits no 'close' for a child the parent disconnected.
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const slot: Slot = { child, task: undefined, gone };
    this.slots.push(slot);
    child.on('message', (m: SweepResult | SweepLog) => this.received(slot, m));
    const died = (why: string, cause?: Error): void =>
      this.died(slot, why, cause, () => child.kill('SIGKILL'));
    child.once('exit', (code, signal) => {
      live.delete(child);
      if (live.size === 0) process.off('exit', killLive);
      const why =
        signal === null ? `process exited with code ${code}` : `process killed by ${signal}`;
      // Its last messages may still be in the pipe (a result sent just before a crash is
      // still that job's result): judge once the channel has closed (end of the pipe).
      if (child.connected) child.once('disconnect', () => died(why));
      else died(why);
    });
    child.on('error', (err) => died(err.message, err));
    return slot;
  }
}

/** Waits for a child to exit, killing it when it takes longer than `ms`. */
async function exitWithin(slot: Slot, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  try {
    if ((await Promise.race([slot.gone, late])) === 'late') {
      slot.child.kill('SIGKILL');
      await Promise.race([slot.gone, new Promise((r) => setTimeout(r, ms).unref())]);
    }
  } finally {
    clearTimeout(timer);
  }
}
