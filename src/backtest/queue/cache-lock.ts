import { join } from 'node:path';
import Database from 'better-sqlite3';

/** The longest a pin or a trim waits for another process's hold on the cache, ms. */
const WAIT_MS = 30_000;

/** The lock's file in the cache folder. */
const LOCK_FILE = 'lock.sqlite';

/**
 * Runs `work` while holding the worker data cache's lock: no other process (and, the work
 * being synchronous, no other task of this one) pins data or removes a tree or a blob
 * meanwhile. A trim looks at the pins and renames a tree out in one hold, and a job
 * writes its pin in one: a pin can no longer land between the trim's last look and its
 * rename (review F1). Held briefly (a few file operations), never across an `await`.
 *
 * The lock is SQLite's: an EXCLUSIVE transaction on `<cacheDir>/lock.sqlite` (an OS file
 * lock, which dies with its process: a worker killed mid-hold leaves nothing stale to
 * clear, unlike a lock file). A process waits up to 30 s for another's hold.
 *
 * @throws the SQLite error (`SQLITE_BUSY`) when the lock is not had in time.
 * @example
 * ```ts
 * withCacheLock(cacheDir, () => renameSync(tree, trash));
 * ```
 */
export function withCacheLock<T>(cacheDir: string, work: () => T, waitMs = WAIT_MS): T {
  const db = new Database(join(cacheDir, LOCK_FILE), { timeout: waitMs });
  try {
    db.exec('BEGIN EXCLUSIVE');
    try {
      return work();
    } finally {
      db.exec('COMMIT');
    }
  } finally {
    db.close();
  }
}
