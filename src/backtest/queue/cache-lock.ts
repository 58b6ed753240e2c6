import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { beginExclusive, endExclusive } from '../../execution/sqlite-exclusive.ts';

/** The longest a pin or a trim waits for another process's hold on the cache, ms. */
const WAIT_MS = 10_000;
/** Between two tries while another process holds the lock, ms. */
const RETRY_MS = 20;

/** The lock's file in the cache folder. */
const LOCK_FILE = 'lock.sqlite';

/** The worker data cache's lock could not be had (held too long elsewhere, or unusable). */
export class CacheLockError extends Error {
  override readonly name = 'CacheLockError';

  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`worker data cache lock ${file}: ${message}`, options);
  }
}

/** SQLite's answer when another connection holds the lock. */
const isBusy = (err: unknown): boolean =>
  (err as { code?: string } | undefined)?.code === 'SQLITE_BUSY';

/**
 * Runs `work` while holding the worker data cache's lock: no other process (and, the work
 * being synchronous, no other task of this one) pins data or removes a tree or a blob
 * meanwhile. A trim looks at the pins and renames a tree out in one hold, and a job
 * writes its pin in one: a pin can no longer land between the trim's last look and its
 * rename (review F1). `work` runs a few file operations; nothing awaits inside a hold.
 *
 * The lock is SQLite's: an EXCLUSIVE transaction on `<cacheDir>/lock.sqlite`, an OS file
 * lock that dies with its process (a worker killed mid-hold leaves nothing stale to
 * clear, unlike a lock file). While another process holds it, this one tries again every
 * 20 ms without blocking its thread (its other jobs' BullMQ locks keep being renewed),
 * for up to `waitMs` (10 s). A damaged lock file is set aside once and made anew.
 *
 * @throws {CacheLockError} naming the file when the lock is not had in time, or the file
 *   cannot be used.
 * @example
 * ```ts
 * await withCacheLock(cacheDir, () => renameSync(tree, trash));
 * ```
 */
export async function withCacheLock<T>(
  cacheDir: string,
  work: () => T,
  waitMs = WAIT_MS,
): Promise<T> {
  const file = join(cacheDir, LOCK_FILE);
  const until = Date.now() + waitMs;
  for (;;) {
    let db: Database.Database;
    try {
      // No wait inside SQLite (it would block this thread): tried again below instead.
      db = beginExclusive(file, 0);
    } catch (err) {
      if (isBusy(err) && Date.now() < until) {
        await sleep(RETRY_MS);
        continue;
      }
      throw new CacheLockError(
        file,
        isBusy(err) ? `held by another process for over ${waitMs} ms` : String(err),
        { cause: err },
      );
    }
    try {
      return work();
    } finally {
      endExclusive(db);
    }
  }
}
