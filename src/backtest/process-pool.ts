import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import type { JobLogSink, JobPool } from './job-pool.ts';
import type { SweepJob, SweepLog, SweepResult } from './sweep-protocol.ts';
import { ThreadCrashError, ThreadPoolClosedError } from './thread-pool.ts';

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
interface Slot {
  readonly child: ChildProcess;
  task: Task | undefined;
  /** Settles once the child has exited. */
  readonly gone: Promise<void>;
}

/** A job waiting for a child, or running on one. */
interface Task {
  readonly job: SweepJob;
  readonly onLog: JobLogSink;
  readonly resolve: (result: SweepResult) => void;
  readonly reject: (err: Error) => void;
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
export class ProcessPool implements JobPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Task[] = [];
  private closed = false;

  /**
   * @param size most child processes at once (default one per core)
   * @param onLog default sink of the runs' log lines (default stdout); a job may name its own
   */
  constructor(
    readonly size = availableParallelism(),
    private readonly onLog: JobLogSink = (text) => void process.stdout.write(text),
  ) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`pool size ${size}: need ≥ 1`);
  }

  /** Children started and alive (named as {@link ThreadPool}'s, for one interface). */
  get threads(): number {
    return this.slots.length;
  }

  /** Jobs running on a child now. */
  get busy(): number {
    return this.slots.filter((s) => s.task !== undefined).length;
  }

  /** The children's process ids (for tests and diagnostics). */
  get pids(): number[] {
    return this.slots.flatMap((s) => s.child.pid ?? []);
  }

  /**
   * Runs a job on the next free child. Resolves with its result (a run that failed is a
   * result with `ok: false`); rejects only when its child died or the pool closed first.
   */
  run(job: SweepJob, onLog: JobLogSink = this.onLog): Promise<SweepResult> {
    if (this.closed) return Promise.reject(new ThreadPoolClosedError('process pool closed'));
    return new Promise<SweepResult>((resolve, reject) => {
      this.waiting.push({ job, onLog, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Stops the children at once: a job running is cut short (its child killed) and
   * rejects with {@link ThreadCrashError}, jobs waiting reject with
   * {@link ThreadPoolClosedError}; an idle child is let go and exits by itself. Resolves
   * when every child has exited (a child that lingers past a few seconds is killed).
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0))
      task.reject(new ThreadPoolClosedError('process pool closed before the job started'));
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      const task = slot.task;
      slot.task = undefined;
      if (task === undefined) {
        if (slot.child.connected) slot.child.disconnect();
      } else {
        slot.child.kill('SIGKILL');
        task.reject(new ThreadCrashError(`job ${task.job.id} stopped: process pool closed`));
      }
    }
    await Promise.all(slots.map((s) => exitWithin(s, EXIT_GRACE_MS)));
  }

  /** Hands waiting jobs to idle children, starting children up to `size`. */
  private dispatch(): void {
    while (this.waiting.length > 0) {
      const slot =
        this.slots.find((s) => s.task === undefined) ??
        (this.slots.length < this.size ? this.spawn() : undefined);
      if (slot === undefined) return;
      const task = this.waiting.shift() as Task;
      slot.task = task;
      // A send to a child that just died fails quietly: its close rejects the task.
      slot.child.send(task.job, (err) => {
        if (err !== null) slot.child.kill('SIGKILL');
      });
    }
  }

  private spawn(): Slot {
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
    child.on('message', (m: SweepResult | SweepLog) => {
      const task = slot.task;
      if (task === undefined) return;
      // A child runs one job at a time: its lines are that job's, whatever id it carries.
      if (m.type === 'log') {
        task.onLog(m.text, task.job.id);
        return;
      }
      slot.task = undefined;
      task.resolve(m);
      this.dispatch();
    });
    const died = (why: string, cause?: Error): void => {
      const at = this.slots.indexOf(slot);
      if (at < 0) return; // closed, or already gone
      this.slots.splice(at, 1);
      const task = slot.task;
      slot.task = undefined;
      task?.reject(new ThreadCrashError(`sweep worker crashed: ${why}`, { cause }));
      child.kill('SIGKILL');
      this.dispatch();
    };
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
