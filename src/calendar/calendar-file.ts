import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { type Holidays, holidaysSchema } from '../api/schemas/utilities.ts';
import { toIstIso } from '../domain/ist.ts';
import type { CalendarStoreLogger } from './calendar-store-options.ts';
import { errorMessage } from './error-message.ts';

const storedFileSchema = z.object({
  format: z.literal('tiqs-runner/holidays@1'),
  fetchedAt: z.iso.datetime({ offset: true }),
  /**
   * Which service answered (the store's `sourceId`: `embedded` or a digest of the base
   * URL; files of 24 November 2026 may hold the URL itself); absent in older files.
   */
  source: z.string().optional(),
  data: holidaysSchema,
});

/**
 * The on-disk copy of the last good (merged) holiday data: reads it at start-up and writes
 * it atomically after each good fetch. Remembers why the copy could not be used, for the
 * store's "no calendar" reason.
 *
 * @example
 * ```ts
 * const file = new CalendarFile('var/holidays-embedded.json', logger);
 * await file.load((data, fetchedAt, source) => install(data, fetchedAt, source));
 * await file.save(data, Date.now(), 'embedded');
 * ```
 */
export class CalendarFile {
  /** Makes temporary names unique when saves overlap. */
  private saveSeq = 0;
  private diskProblem: string | undefined;

  constructor(
    readonly path: string,
    private readonly logger?: CalendarStoreLogger,
  ) {}

  /** Why the stored copy is unusable (unreadable or invalid), if it is. */
  get problem(): string | undefined {
    return this.diskProblem;
  }

  /**
   * Reads and checks the stored copy and hands it to `use`. A missing file is not a
   * problem; an unreadable or invalid one is recorded in {@link CalendarFile.problem}, and
   * so is a copy `use` rejects by throwing (the calendar cannot be built from it).
   */
  async load(
    use: (data: Holidays, fetchedAt: number, source: string | undefined) => void,
  ): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.diskProblem = `stored copy at ${this.path} is unreadable (${errorMessage(err)})`;
      }
      return;
    }
    try {
      const stored = storedFileSchema.parse(JSON.parse(text));
      use(stored.data, Date.parse(stored.fetchedAt), stored.source);
    } catch (err) {
      this.diskProblem = `stored copy at ${this.path} is invalid (${errorMessage(err)})`;
      this.logger?.warn({ path: this.path, err }, 'stored calendar ignored');
    }
  }

  /** Writes `data` as fetched at `fetchedAt` (epoch ms) from `source`; throws when it cannot. */
  async save(
    data: Holidays | undefined,
    fetchedAt: number,
    source: string | undefined,
  ): Promise<void> {
    const { path } = this;
    const body = {
      format: 'tiqs-runner/holidays@1',
      fetchedAt: toIstIso(fetchedAt),
      ...(source === undefined ? {} : { source }),
      data,
    };
    await mkdir(dirname(path), { recursive: true });
    // Write then rename, so a crash mid-write never leaves a torn file in place.
    const tmp = `${path}.${process.pid}.${this.saveSeq++}.tmp`;
    try {
      await writeFile(tmp, `${JSON.stringify(body, null, 2)}\n`, 'utf8');
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }
}
