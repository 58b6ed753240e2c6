import { availableParallelism } from 'node:os';
import type { SweepExecutor, SweepJob, SweepResult } from './sweep-protocol.ts';
import { ThreadPool } from './thread-pool.ts';

/**
 * Runs sweep jobs on worker threads, one per core by default, each taking the next job
 * when it is done. Workers run the framework the way the CLI does (compiled, or as
 * TypeScript): see {@link ThreadPool}, which this runs the jobs on, one pool per sweep.
 *
 * @example
 * ```ts
 * for await (const r of new ThreadPoolExecutor(4).run(jobs)) console.log(r.id, r.ok);
 * ```
 */
export class ThreadPoolExecutor implements SweepExecutor {
  /**
   * @param size worker threads
   * @param onLog where the runs' log lines go, with the id of the job that wrote them
   *   (default stdout); the CLI's keeps its bar whole
   */
  constructor(
    readonly size = availableParallelism(),
    private readonly onLog: (text: string, id: number) => void = (text) =>
      void process.stdout.write(text),
  ) {}

  async *run(jobs: readonly SweepJob[]): AsyncIterable<SweepResult> {
    // No more threads than jobs: a two-run sweep on a 16-core machine starts two.
    const pool = new ThreadPool(Math.max(1, Math.min(this.size, jobs.length)), this.onLog);
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
          failure ??= err;
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
