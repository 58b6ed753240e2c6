import type { Logger } from 'pino';
import { trimSweepCache } from './sweep-cache-trim.ts';

/** Between two trims at most once this often (ms): a trim lists the whole cache. */
const EVERY_MS = 30_000;

/**
 * Keeps a worker's data cache under its budget (`--cache-max-gb`): a trim after a job,
 * at most one at a time and one per 30 s, never failing the worker (a trim that fails is
 * logged and tried again later). What it removes is logged, in MiB.
 *
 * @example
 * ```ts
 * const trimmer = new CacheTrimmer(cacheDir, 20 * 2 ** 30, log);
 * trimmer.soon(); // after each job
 * ```
 */
export class CacheTrimmer {
  #running: Promise<void> | undefined;
  #last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly cacheDir: string,
    private readonly maxBytes: number,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Trims now unless one runs or ran in the last 30 s; resolves when that trim ends. */
  soon(): Promise<void> {
    if (this.#running !== undefined) return this.#running;
    if (this.now() - this.#last < EVERY_MS) return Promise.resolve();
    this.#last = this.now();
    this.#running = this.#trim().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async #trim(): Promise<void> {
    const mib = (n: number) => Math.round(n / 2 ** 20);
    try {
      const t = await trimSweepCache(this.cacheDir, this.maxBytes, this.now());
      if (t.removedTrees + t.removedBlobs > 0)
        this.log.info(
          {
            removedRecordings: t.removedTrees,
            removedFiles: t.removedBlobs,
            freedMiB: mib(t.freedBytes),
            usedMiB: mib(t.usedBytes),
            budgetMiB: mib(this.maxBytes),
          },
          'data cache trimmed',
        );
      if (t.usedBytes > this.maxBytes)
        this.log.warn(
          { usedMiB: mib(t.usedBytes), budgetMiB: mib(this.maxBytes) },
          'data cache above its budget: what is left is in use (raise --cache-max-gb)',
        );
    } catch (err) {
      this.log.warn({ error: (err as Error).message }, 'data cache trim failed; tried again later');
    }
  }
}
