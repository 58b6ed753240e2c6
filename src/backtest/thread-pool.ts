import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { JobLogSink } from './job-pool.ts';
import { type PoolSlot, SlotPool, ThreadCrashError } from './slot-pool.ts';
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

/** A thread of the pool and the task it runs, if any. */
interface Slot extends PoolSlot {
  readonly worker: Worker;
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
export class ThreadPool extends SlotPool<Slot> {
  /**
   * @param size most threads at once (default one per core)
   * @param onLog default sink of the runs' log lines (default stdout); a job may name its own
   */
  constructor(
    size = availableParallelism(),
    onLog: JobLogSink = (text) => void process.stdout.write(text),
  ) {
    super(size, onLog, 'thread pool');
  }

  /**
   * Stops the threads at once: a job running is cut short and rejects with
   * {@link ThreadCrashError}, jobs waiting reject with {@link ThreadPoolClosedError}.
   * Wait for the jobs' promises first for a graceful stop.
   */
  async close(): Promise<void> {
    const slots = this.shut((_slot, task) =>
      task?.reject(new ThreadCrashError(`job ${task.job.id} stopped: thread pool closed`)),
    );
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  protected send(slot: Slot, job: SweepJob): void {
    slot.worker.postMessage(job);
  }

  protected spawn(): Slot {
    const slot: Slot = { worker: new Worker(WORKER_BOOT, { eval: true }), task: undefined };
    this.slots.push(slot);
    slot.worker.on('message', (m: SweepResult | SweepLog) => this.received(slot, m));
    const died = (why: string, cause?: Error): void =>
      this.died(slot, why, cause, () => void slot.worker.terminate());
    slot.worker.on('error', (err) => died(err.message, err));
    slot.worker.on('exit', (code) => died(`thread exited with code ${code}`));
    return slot;
  }
}
