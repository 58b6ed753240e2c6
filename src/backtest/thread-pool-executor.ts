import { availableParallelism } from 'node:os';
import type { JobLogSink } from './job-pool.ts';
import { PoolExecutor } from './pool-executor.ts';
import { ThreadPool } from './thread-pool.ts';

/**
 * Runs sweep jobs on worker threads of one process ({@link ThreadPool}), one per core by
 * default. The CLI's local sweep runs on child processes instead
 * ({@link import('./process-pool.ts')}), which slow each other less; see
 * {@link PoolExecutor} for how jobs are handed out and a dead worker reported.
 *
 * @example
 * ```ts
 * for await (const r of new ThreadPoolExecutor(4).run(jobs)) console.log(r.id, r.ok);
 * ```
 */
export class ThreadPoolExecutor extends PoolExecutor {
  /**
   * @param size worker threads
   * @param onLog where the runs' log lines go, with the id of the job that wrote them
   *   (default stdout)
   */
  constructor(size = availableParallelism(), onLog?: JobLogSink) {
    super((n, log) => new ThreadPool(n, log), size, onLog);
  }
}
