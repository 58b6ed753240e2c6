import {
  closeSync,
  existsSync,
  ftruncateSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';

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
 * ({@link clear}), and folds what a crashed process left when it opens ({@link read}).
 *
 * One line per row: `at`, a tab, the body. A line cut short by a crash mid-write is
 * skipped: its write never returned, so its order was never sent.
 *
 * @example
 * ```ts
 * const log = new PresendLog(`${path}-presend`);
 * log.append(now, JSON.stringify(order)); // then send
 * ```
 */
export class PresendLog {
  private fd: number | undefined;

  constructor(readonly path: string) {}

  /** Appends one row; returns once the bytes are written (not fsynced). */
  append(at: number, body: string): void {
    this.fd ??= openSync(this.path, 'a');
    writeSync(this.fd, `${at}\t${body}\n`);
  }

  /** Empties the file: every row in it is in SQLite. */
  clear(): void {
    if (this.fd !== undefined) ftruncateSync(this.fd, 0);
  }

  /**
   * Closes the file and removes it: every row in it is in SQLite. Only a log this process
   * wrote to: another process's journal on the same file (a CLI reading it) leaves it be.
   */
  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
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
