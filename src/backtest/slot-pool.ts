import type { JobLogSink, JobPool } from './job-pool.ts';
import type { SweepJob, SweepLog, SweepResult } from './sweep-protocol.ts';

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

/** A job waiting for a worker, or running on one. */
export interface PoolTask {
  readonly job: SweepJob;
  readonly onLog: JobLogSink;
  readonly resolve: (result: SweepResult) => void;
  readonly reject: (err: Error) => void;
}

/** A worker of the pool and the task it runs, if any. */
export interface PoolSlot {
  task: PoolTask | undefined;
}

/**
 * What the thread pool and the process pool share: jobs wait in order for a free worker,
 * workers start as jobs need them (at most `size`) and stay for later jobs, one job each
 * at a time; a worker's messages settle its job, and a worker that dies rejects its job
 * with {@link ThreadCrashError} and leaves the pool. Subclasses say how a worker starts
 * (`spawn`, which adds its slot to `slots` and wires {@link received} and {@link died}),
 * how it is sent a job, and how the pool closes (with {@link shut}).
 */
export abstract class SlotPool<S extends PoolSlot> implements JobPool {
  protected readonly slots: S[] = [];
  private readonly waiting: PoolTask[] = [];
  private closed = false;

  /**
   * @param size most workers at once
   * @param onLog default sink of the runs' log lines; a job may name its own
   * @param what the pool's name in its errors ('thread pool', 'process pool')
   */
  constructor(
    readonly size: number,
    private readonly onLog: JobLogSink,
    private readonly what: string,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`pool size ${size}: need ≥ 1`);
  }

  /** Workers started and alive. */
  get threads(): number {
    return this.slots.length;
  }

  /** Jobs running on a worker now. */
  get busy(): number {
    return this.slots.filter((s) => s.task !== undefined).length;
  }

  /**
   * Runs a job on the next free worker. Resolves with its result (a run that failed is a
   * result with `ok: false`); rejects only when its worker died or the pool closed first.
   */
  run(job: SweepJob, onLog: JobLogSink = this.onLog): Promise<SweepResult> {
    if (this.closed) return Promise.reject(new ThreadPoolClosedError(`${this.what} closed`));
    return new Promise<SweepResult>((resolve, reject) => {
      this.waiting.push({ job, onLog, resolve, reject });
      this.dispatch();
    });
  }

  abstract close(): Promise<void>;

  /** Starts a worker, adds its slot to `slots`, and wires its messages and its death. */
  protected abstract spawn(): S;

  /** Hands `job` to the worker of `slot`. */
  protected abstract send(slot: S, job: SweepJob): void;

  /**
   * Closes the pool: jobs waiting reject with {@link ThreadPoolClosedError}, and every
   * slot is taken out and handed to `stop` with the task it was running, if any.
   */
  protected shut(stop: (slot: S, task: PoolTask | undefined) => void): S[] {
    this.closed = true;
    for (const task of this.waiting.splice(0))
      task.reject(new ThreadPoolClosedError(`${this.what} closed before the job started`));
    const slots = this.slots.splice(0);
    for (const slot of slots) {
      const task = slot.task;
      slot.task = undefined;
      stop(slot, task);
    }
    return slots;
  }

  /** A message of the worker of `slot`: a log line of its job, or its job's result. */
  protected received(slot: S, m: SweepResult | SweepLog): void {
    const task = slot.task;
    if (task === undefined) return;
    // A worker runs one job at a time: its lines are that job's, whatever id it carries.
    if (m.type === 'log') {
      task.onLog(m.text, task.job.id);
      return;
    }
    slot.task = undefined;
    task.resolve(m);
    this.dispatch();
  }

  /** The worker of `slot` died: its job rejects, `stop` ends what is left of it. */
  protected died(slot: S, why: string, cause: Error | undefined, stop: () => void): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return; // closed, or already gone
    this.slots.splice(at, 1);
    const task = slot.task;
    slot.task = undefined;
    task?.reject(new ThreadCrashError(`sweep worker crashed: ${why}`, { cause }));
    stop();
    this.dispatch();
  }

  /** Hands waiting jobs to idle workers, starting workers up to `size`. */
  private dispatch(): void {
    while (this.waiting.length > 0) {
      const slot =
        this.slots.find((s) => s.task === undefined) ??
        (this.slots.length < this.size ? this.spawn() : undefined);
      if (slot === undefined) return;
      const task = this.waiting.shift() as PoolTask;
      slot.task = task;
      this.send(slot, task.job);
    }
  }
}
