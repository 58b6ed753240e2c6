import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { JournalWriteError } from './journal-write-error.ts';

/** A new order's journal row as the pre-send log keeps it: when, and the row's body. */
export interface PresendRow {
  at: number;
  /** The order as JSON, as the journal's `orders.body` column holds it. */
  body: string;
}

/**
 * The journal's pre-send log: a new order's row appended to a plain file with one
 * `write(2)` before its request is sent, so the tag is in the operating system's hands
 * (durable across a crash of the process, as a SQLite commit with `synchronous = NORMAL`
 * is) at a few µs instead of a SQLite statement's tens on the placement path. The journal
 * folds the rows into SQLite at its next write, truncates the file between orders
 * ({@link clear}), folds what a crashed process left when it opens ({@link read}) and then
 * empties the file ({@link reset}), and removes it at close.
 *
 * One line per row: `at`, a tab, the body. A line cut short by a crash mid-write is
 * skipped: its write never returned, so its order was never sent. A short write (disk
 * full, a size limit) is cut back to the whole rows and throws {@link JournalWriteError},
 * so that order is not sent either. Emptied at open, the file always ends at a row's end,
 * so a torn line never runs into the next process's first row.
 *
 * @example
 * ```ts
 * const log = new PresendLog(`${path}-presend`);
 * log.append(now, JSON.stringify(order)); // then send
 * ```
 */
export class PresendLog {
  private fd: number | undefined;
  /** The file's length: where the rows written so far end (a short write is cut back to it). */
  private size = 0;

  constructor(readonly path: string) {}

  /**
   * Appends one row; returns once all its bytes are written (not fsynced). Throws
   * {@link JournalWriteError} (the file cut back to its whole rows) when they are not.
   */
  append(at: number, body: string): void {
    if (this.fd === undefined) {
      this.fd = openSync(this.path, 'a');
      this.size = fstatSync(this.fd).size;
    }
    const line = Buffer.from(`${at}\t${body}\n`);
    let written = 0;
    let cause: unknown;
    try {
      // Node does not loop on a short write: it returns the count.
      written = writeSync(this.fd, line);
    } catch (err) {
      cause = err;
    }
    if (written === line.length) {
      this.size += written;
      return;
    }
    // A torn row would hide the next one from a restart; the order is not sent either.
    ftruncateSync(this.fd, this.size);
    throw new JournalWriteError(
      `pre-send log write incomplete (${written} of ${line.length} bytes)`,
      this.path,
      { cause },
    );
  }

  /** Empties the file: every row in it is in SQLite. Already empty: no system call. */
  clear(): void {
    if (this.fd === undefined || this.size === 0) return;
    ftruncateSync(this.fd, 0);
    this.size = 0;
  }

  /** Empties the file at open, once a crashed process's rows are folded into SQLite. */
  reset(): void {
    if (this.fd !== undefined) this.clear();
    else if (existsSync(this.path)) truncateSync(this.path, 0);
  }

  /** Closes the file and removes it: every row in it is in SQLite. */
  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.path, { force: true });
  }

  /** The whole rows of the log at `path` (none when it is absent), oldest first. */
  static read(path: string): PresendRow[] {
    if (!existsSync(path)) return [];
    const rows: PresendRow[] = [];
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      const tab = line.indexOf('\t');
      if (tab <= 0) continue;
      const at = Number(line.slice(0, tab));
      const body = line.slice(tab + 1);
      if (!Number.isFinite(at) || !isJsonObject(body)) continue;
      rows.push({ at, body });
    }
    return rows;
  }
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}
