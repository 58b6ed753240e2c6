import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SweepExecutor, SweepJob, SweepLog, SweepResult } from './sweep-protocol.ts';

/**
 * A worker's first script. Compiled (from `dist/`), it loads the compiled worker; the
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

/**
 * Runs sweep jobs on worker threads, one per core by default, each taking the next job
 * when it is done. Workers run the framework the way the CLI does (compiled, or as TypeScript).
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
    const queue = [...jobs];
    const results: SweepResult[] = [];
    let wake: (() => void) | undefined;
    let failure: Error | undefined;
    const workers = Array.from({ length: Math.max(1, Math.min(this.size, jobs.length)) }, () => {
      const worker = new Worker(WORKER_BOOT, { eval: true });
      const feed = (): void => {
        const job = queue.shift();
        if (job === undefined) void worker.terminate();
        else worker.postMessage(job);
      };
      worker.on('message', (r: SweepResult | SweepLog) => {
        if (r.type === 'log') {
          this.onLog(r.text, r.id);
          return;
        }
        results.push(r);
        wake?.();
        feed();
      });
      worker.on('error', (err) => {
        failure = new Error(`sweep worker crashed: ${err.message}`, { cause: err });
        wake?.();
      });
      feed();
      return worker;
    });
    try {
      for (let done = 0; done < jobs.length; ) {
        if (results.length === 0) {
          if (failure !== undefined) throw failure;
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = undefined;
          continue;
        }
        const next = results.shift();
        if (next !== undefined) {
          done += 1;
          yield next;
        }
      }
    } finally {
      await Promise.all(workers.map((w) => w.terminate()));
    }
  }
}
