import type { SweepJob, SweepResult } from './sweep-protocol.ts';

/** Where a job's log lines go, with the job that wrote them. */
export type JobLogSink = (text: string, id: number) => void;

/**
 * A persistent pool of sweep workers: worker threads ({@link import('./thread-pool.ts')})
 * or child processes ({@link import('./process-pool.ts')}). Both keep their workers
 * between jobs, run one job per worker at a time, and fail the same way, so a caller
 * (the local sweep, a queue worker) switches between them by the constructor alone.
 */
export interface JobPool {
  /** Most workers at once. */
  readonly size: number;
  /** Workers started and alive. */
  readonly threads: number;
  /** Jobs running on a worker now. */
  readonly busy: number;
  /**
   * Runs a job on the next free worker. Resolves with its result (a run that failed is a
   * result with `ok: false`); rejects with `ThreadCrashError` when its worker died under
   * it, or `ThreadPoolClosedError` when the pool closed first.
   */
  run(job: SweepJob, onLog?: JobLogSink): Promise<SweepResult>;
  /** Stops the workers at once: a job running rejects, jobs waiting are refused. */
  close(): Promise<void>;
}
