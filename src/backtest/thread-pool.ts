import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { JobLogSink, JobPool } from './job-pool.ts';
import type { SweepJob, SweepLog, SweepResult } from './sweep-protocol.ts';

/**
 * A worker's first script: the one place that says how a sweep thread boots (a bundled
 * CLI would change it here). Compiled (from `dist/`), it loads the compiled worker; the
 * worker registers tsx itself when it loads a TypeScript strategy. Run as TypeScript,
 * it first registers tsx's loader in the worker (loader hooks of the parent do not reach
 * workers, and `execArgv: ['--import', 'tsx']` is not honoured under an in-process
 * registration), then loads the TypeScript worker.
 */
const WORKER_BOOT = import.meta.url.endsWith('.js')
  ? `import(${JSON.stringify(new URL('./sweep-worker.js', import.meta.url).href)})
  .catch((err) => { console.error(err); process.exit(1); });`
  : `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./sweep-worker.ts', import.meta.url).href)}); })
  .catch((err) => { console.error(err); process.exit(1); });`;

/** A job waiting for a thread, or running on one. */
interface Task {
  readonly job: SweepJob;
  readonly onLog: JobLogSink;
  readonly resolve: (result: SweepResult) => void;
  readonly reject: (err: Error) => void;
}

/** A thread of the pool and the task it runs, if any. */
interface Slot {
  readonly worker: Worker;
  task: Task | undefined;
}

/**
 * A worker of a pool (a thread, or a child process of the process pool) died under a
 * job: the job has no result (a queue retries it; a local sweep reports a failed run).
 */
export class ThreadCrashError extends Error {
  override readonly name = 'ThreadCrashError';
}

/** The pool was closed: no new job is taken, and jobs not yet started are refused. */
export class ThreadPoolClosedError extends Error {
  override readonly name = 'ThreadPoolClosedError';
}

/**
 * A persistent pool of sweep worker threads: at most `size` threads, started as jobs
 * need them and kept for later jobs (a queue worker runs many sweeps' jobs on one pool;
 * a thread's loaded modules and strategy cache stay warm). Each thread runs one job at a
 * time; jobs wait in order for a free thread. A thread that dies under a job rejects that
 * job with {@link ThreadCrashError} and is replaced for the next one.
 *
 * @example
 * ```ts
 * const pool = new ThreadPool(2);
 * const result = await pool.run({ type: 'job', id: 0, specFile, params: { 'sma.fast': 5 } });
 * await pool.close();
 * ```
 */
export class ThreadPool implements JobPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Task[] = [];
  private closed = false;

  /**
   * @param size most threads at once (default one per core)
   * @param onLog default sink of the runs' log lines (default stdout); a job may name its own
   */
  constructor(
    readonly size = availableParallelism(),
    private readonly onLog: JobLogSink = (text) => void process.stdout.write(text),
  ) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`pool size ${size}: need ≥ 1`);
  }

  /** Threads started and alive. */
  get threads(): number {
    return this.slots.length;
  }

  /** Jobs running on a thread now. */
  get busy(): number {
    return this.slots.filter((s) => s.task !== undefined).length;
  }

  /**
   * Runs a job on the next free thread. Resolves with its result (a run that failed is a
   * result with `ok: false`); rejects only when its thread died or the pool closed first.
   */
  run(job: SweepJob, onLog: JobLogSink = this.onLog): Promise<SweepResult> {
    if (this.closed) return Promise.reject(new ThreadPoolClosedError('thread pool closed'));
    return new Promise<SweepResult>((resolve, reject) => {
      this.waiting.push({ job, onLog, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Stops the threads at once: a job running is cut short and rejects with
   * {@link ThreadCrashError}, jobs waiting reject with {@link ThreadPoolClosedError}.
   * Wait for the jobs' promises first for a graceful stop.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.waiting.splice(0))
      task.reject(new ThreadPoolClosedError('thread pool closed before the job started'));
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      const task = slot.task;
      slot.task = undefined;
      task?.reject(new ThreadCrashError(`job ${task.job.id} stopped: thread pool closed`));
    }
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  /** Hands waiting jobs to idle threads, starting threads up to `size`. */
  private dispatch(): void {
    while (this.waiting.length > 0) {
      const slot =
        this.slots.find((s) => s.task === undefined) ??
        (this.slots.length < this.size ? this.spawn() : undefined);
      if (slot === undefined) return;
      const task = this.waiting.shift() as Task;
      slot.task = task;
      slot.worker.postMessage(task.job);
    }
  }

  private spawn(): Slot {
    const slot: Slot = { worker: new Worker(WORKER_BOOT, { eval: true }), task: undefined };
    this.slots.push(slot);
    slot.worker.on('message', (m: SweepResult | SweepLog) => {
      const task = slot.task;
      if (task === undefined) return;
      // A thread runs one job at a time: its lines are that job's, whatever id it carries.
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
      void slot.worker.terminate();
      this.dispatch();
    };
    slot.worker.on('error', (err) => died(err.message, err));
    slot.worker.on('exit', (code) => died(`thread exited with code ${code}`));
    return slot;
  }
}
