import { renameSync } from 'node:fs';
import Database from 'better-sqlite3';

/** Whether SQLite said the file is not a database (a disk fault, a stray write). */
function isDamaged(err: unknown): boolean {
  const code = (err as { code?: string } | undefined)?.code;
  return code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT';
}

/**
 * Opens `file` and begins an SQLite EXCLUSIVE transaction on it: a cross-process lock held
 * by an OS file lock, which dies with its process, so a crash leaves nothing to clear.
 * SQLite waits up to `timeoutMs` for another holder (0: not at all), blocking the thread.
 * A file that is not a database is set aside once (nothing in it matters) and made anew.
 * Throws SQLite's error otherwise (`SQLITE_BUSY` past the wait). End the hold with
 * {@link endExclusive}. Shared by the journal lock and the worker data cache's lock.
 *
 * @example
 * ```ts
 * const db = beginExclusive('state/journal.sqlite.lock.sqlite', 10_000);
 * try { work(); } finally { endExclusive(db); }
 * ```
 */
export function beginExclusive(file: string, timeoutMs: number): Database.Database {
  for (let attempt = 0; ; attempt += 1) {
    const db = new Database(file, { timeout: timeoutMs });
    try {
      db.exec('BEGIN EXCLUSIVE');
      return db;
    } catch (err) {
      db.close();
      if (!isDamaged(err) || attempt > 0) throw err;
      try {
        renameSync(file, `${file}.damaged-${process.pid}-${Date.now()}`);
      } catch {
        // Another process set it aside first.
      }
    }
  }
}

/** Ends a hold {@link beginExclusive} began, and closes its database. */
export function endExclusive(db: Database.Database): void {
  db.exec('COMMIT');
  db.close();
}
