import { availableParallelism } from 'node:os';
import type { JobLogSink, JobPool } from './job-pool.ts';
import { ThreadCrashError } from './slot-pool.ts';
import type { SweepExecutor, SweepJob, SweepResult } from './sweep-protocol.ts';

/** Makes the pool a sweep runs on: `size` workers, log lines to `onLog`. */
export type JobPoolFactory = (size: number, onLog: JobLogSink) => JobPool;

/**
 * Runs sweep jobs on a {@link JobPool} (threads or child processes), one pool per sweep
 * with no more workers than jobs, each worker taking the next job when it is done. A
 * worker that dies under a job (a native crash, `process.exit` in a strategy, the OOM
 * killer) makes that job a failed run with its params and the reason; the other jobs go
 * on, on a new worker.
 *
 * @example
 * ```ts
 * const executor = new PoolExecutor((n, log) => new ProcessPool(n, log), 4);
 * for await (const r of executor.run(jobs)) console.log(r.id, r.ok);
 * ```
 */
export class PoolExecutor implements SweepExecutor {
  /**
   * @param newPool makes the pool
   * @param size workers (default one per core)
   * @param onLog where the runs' log lines go, with the id of the job that wrote them
   *   (default stdout); the CLI's keeps its bar whole
   */
  constructor(
    private readonly newPool: JobPoolFactory,
    readonly size = availableParallelism(),
    private readonly onLog: JobLogSink = (text) => void process.stdout.write(text),
  ) {}

  async *run(jobs: readonly SweepJob[]): AsyncIterable<SweepResult> {
    // No more workers than jobs: a two-run sweep on a 16-core machine starts two.
    const pool = this.newPool(Math.max(1, Math.min(this.size, jobs.length)), this.onLog);
    const results: SweepResult[] = [];
    let wake: (() => void) | undefined;
    let failure: Error | undefined;
    for (const job of jobs) {
      pool.run(job).then(
        (r) => {
          results.push(r);
          wake?.();
        },
        (err: Error) => {
          if (err instanceof ThreadCrashError) results.push(crashed(job, err));
          else failure ??= err;
          wake?.();
        },
      );
    }
    try {
      for (let done = 0; done < jobs.length; ) {
        const next = results.shift();
        if (next !== undefined) {
          done += 1;
          yield next;
          continue;
        }
        if (failure !== undefined) throw failure;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = undefined;
      }
    } finally {
      await pool.close();
    }
  }
}

/** A job whose worker died under it: a failed run, named by its params. */
function crashed(job: SweepJob, err: Error): SweepResult {
  return { type: 'result', id: job.id, params: job.params, ok: false, error: err.message };
}
