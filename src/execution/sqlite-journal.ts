import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { OrderEvent } from '../domain/order-events.ts';
import type { Journal, JournalEntry, JournalSnapshot } from './journal.ts';
import { JournalCheckpointer } from './journal-checkpointer.ts';
import { JournalLock } from './journal-lock.ts';
import { readMeta, readSnapshot, type StoredOrder } from './journal-reader.ts';
import { PresendLog } from './presend-log.ts';
import type { TrackedOrder } from './tracked-order.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS orders (
  tag TEXT PRIMARY KEY,
  strategy_id TEXT NOT NULL,
  intent_id TEXT NOT NULL,
  order_id TEXT,
  status TEXT NOT NULL,
  updated_at INTEGER NOT NULL,
  body TEXT NOT NULL
);
-- No query looks orders up by intent (the tracker indexes them in memory); the index
-- journals before 2026-11-24 had cost every order write a third B-tree, before the send.
DROP INDEX IF EXISTS orders_by_intent;
CREATE TABLE IF NOT EXISTS fills (
  fill_id TEXT PRIMARY KEY,
  tag TEXT NOT NULL,
  strategy_id TEXT NOT NULL,
  token TEXT NOT NULL,
  symbol TEXT NOT NULL,
  side TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  price INTEGER NOT NULL,
  at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  strategy_id TEXT NOT NULL,
  type TEXT NOT NULL,
  body TEXT NOT NULL
);
`;

/** The parameters of one `orders` row, in {@link SqliteJournal}'s statement order. */
type OrderRow = [string, string, string, string | null, string, number, string];

/** Settings of {@link SqliteJournal}. */
export interface SqliteJournalOptions {
  /**
   * `normal` (default): each write survives a crash of the process; an OS crash or power
   * loss may drop the last ones. `full`: an fsync per commit, so they survive those too,
   * at milliseconds per placement on most disks (and a new order's row goes to SQLite
   * itself before its send, not to the pre-send log, which is not fsynced).
   */
  synchronous?: 'normal' | 'full';
}

/**
 * The journal in SQLite (better-sqlite3): synchronous writes in WAL mode with
 * `synchronous = NORMAL`. A write is in the operating system's hands when the call
 * returns, so "persisted before it is sent" holds across a process crash (kill -9, an
 * uncaught error, an OOM kill); an OS crash or a power loss may drop the last writes
 * (no fsync per commit: it would cost milliseconds on the placement path). A write is
 * one statement where it can be (a placement's order row), one transaction otherwise.
 */
export class SqliteJournal implements Journal {
  private readonly db: Database.Database;
  private readonly putOrder: Database.Statement;
  private readonly putFill: Database.Statement;
  private readonly putEvent: Database.Statement;
  /** One transaction: a fill already there aborts the whole entry. */
  private readonly write: (entry: JournalEntry) => boolean;
  /** Runs checkpoints off the event loop (see {@link JournalCheckpointer}). */
  private readonly checkpointer: JournalCheckpointer;
  private closed = false;
  /** New orders' rows, written to {@link presend} and not yet to SQLite (see {@link commitNew}). */
  private pending: OrderRow[] = [];
  /** Absent in memory and with `synchronous: 'full'`: rows go to SQLite before the send. */
  private readonly presend: PresendLog | undefined;
  private readonly putOrderIfNew: Database.Statement;
  /** Absent in memory: one writing process per journal file (see {@link JournalLock}). */
  private readonly lock: JournalLock | undefined;

  constructor(
    readonly path: string,
    options: SqliteJournalOptions = {},
  ) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.lock = path === ':memory:' ? undefined : new JournalLock(path);
    // Before anything is read or folded: a second bot on this file is refused here.
    this.lock?.acquire();
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // WAL with NORMAL sync: a commit survives a process crash (kill -9) as soon as the
    // call returns; only an OS crash or power loss could drop the last commits. FULL
    // survives those too, at an fsync per commit on the placement path.
    this.db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    // Checkpoints (which do fsync) run from {@link checkpoint}, on their own thread.
    this.db.pragma('wal_autocheckpoint = 0');
    this.db.exec(SCHEMA);
    this.checkpointer = new JournalCheckpointer(path, () =>
      this.db.pragma('wal_checkpoint(PASSIVE)'),
    );
    // Positional parameters: binding by name costs a lookup per parameter on every write.
    this.putOrder = this.db.prepare(
      `INSERT INTO orders (tag, strategy_id, intent_id, order_id, status, updated_at, body)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(tag) DO UPDATE SET order_id = excluded.order_id, status = excluded.status,
         updated_at = excluded.updated_at, body = excluded.body`,
    );
    this.putFill = this.db.prepare(
      `INSERT OR IGNORE INTO fills (fill_id, tag, strategy_id, token, symbol, side, quantity, price, at)
       VALUES (@fillId, @tag, @strategyId, @token, @symbol, @side, @quantity, @price, @at)`,
    );
    this.putEvent = this.db.prepare(
      'INSERT INTO events (at, strategy_id, type, body) VALUES (?, ?, ?, ?)',
    );
    // A row the pre-send log holds is a new tag's first state: any row SQLite has for it is
    // the same state or a later one, so a leftover never overwrites.
    this.putOrderIfNew = this.db.prepare(
      `INSERT INTO orders (tag, strategy_id, intent_id, order_id, status, updated_at, body)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(tag) DO NOTHING`,
    );
    this.write = this.db.transaction((entry: JournalEntry): boolean => {
      // New orders' rows first, in placement order, before anything written after them.
      for (const row of this.pending) this.putOrder.run(...row);
      if (entry.fill !== undefined && this.putFill.run(entry.fill).changes === 0) return false;
      for (const order of entry.orders ?? []) this.putOrderRow(order, entry.at);
      for (const event of entry.deferredEvents ?? []) this.putEventRow(event);
      if (entry.event !== undefined) this.putEventRow(entry.event);
      return true;
    });
    const usePresend = path !== ':memory:' && options.synchronous !== 'full';
    this.presend = usePresend ? new PresendLog(`${path}-presend`) : undefined;
    if (usePresend) {
      this.foldLeftovers();
      // Folded: the rows are in SQLite. Emptied, so a torn last line never glues itself to
      // this process's first row, and the rows are not folded again at every start.
      this.presend?.reset();
    }
  }

  /**
   * A new order's first row, before its request is sent: appended to the pre-send log
   * (one write(2), durable across a crash of the process like a commit here), and written
   * to SQLite with the next commit. A restart finds it either way (see {@link PresendLog}).
   */
  commitNew(order: TrackedOrder, at: number): void {
    if (this.presend === undefined) {
      this.commit({ orders: [order], at });
      return;
    }
    const row = this.orderRow(order, at);
    this.presend.append(at, row[6]);
    this.pending.push(row);
  }

  /** Rows a process left in the pre-send log without folding them (it crashed), into SQLite. */
  private foldLeftovers(): void {
    const rows = PresendLog.read(`${this.path}-presend`);
    if (rows.length === 0) return;
    this.db.transaction(() => {
      for (const { at, body } of rows) {
        const o = JSON.parse(body) as StoredOrder;
        this.putOrderIfNew.run(
          o.tag,
          o.strategyId,
          o.intentId,
          o.orderId ?? null,
          o.status,
          at,
          body,
        );
      }
    })();
  }

  /** Writes the pending new orders' rows (bookkeeping between orders, load, close). */
  private foldPending(): void {
    if (this.pending.length > 0) this.commit({ at: 0 });
  }

  commit(entry: JournalEntry): boolean {
    const { orders } = entry;
    if (
      this.pending.length === 0 &&
      orders?.length === 1 &&
      entry.fill === undefined &&
      entry.event === undefined &&
      (entry.deferredEvents?.length ?? 0) === 0
    ) {
      // One row, as a placement writes before its send: a single statement is its own
      // transaction (as durable, all or nothing), without a BEGIN and a COMMIT around it.
      this.putOrderRow(orders[0] as TrackedOrder, entry.at);
      return true;
    }
    const written = this.write(entry);
    // Committed (the transaction threw otherwise): the pending rows are in SQLite now.
    this.pending = [];
    return written;
  }

  private putEventRow(event: OrderEvent): void {
    this.putEvent.run(event.at, event.strategyId, event.type, JSON.stringify(event));
  }

  getMeta(key: string): string | undefined {
    return readMeta(this.db, key);
  }

  setMeta(key: string, value: string): void {
    this.db
      .prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      )
      .run(key, value);
  }

  private putOrderRow(order: TrackedOrder, at: number): void {
    this.putOrder.run(...this.orderRow(order, at));
  }

  private orderRow(order: TrackedOrder, at: number): OrderRow {
    // Copied, then the key replaced (not `{ ...order, fills }`, built on V8's slow path):
    // the same keys in the same order, so the same JSON.
    const stored = Object.assign({}, order) as unknown as StoredOrder;
    stored.fills = [...order.fills];
    return [
      order.tag,
      order.strategyId,
      order.intentId,
      order.orderId ?? null,
      order.status,
      at,
      JSON.stringify(stored),
    ];
  }

  load(): JournalSnapshot {
    this.foldPending();
    return readSnapshot(this.db);
  }

  /** The last `limit` events, oldest first (for `tiqs-runner orders`). */
  recentEvents(limit = 50): OrderEvent[] {
    const rows = this.db
      .prepare('SELECT body FROM events ORDER BY seq DESC LIMIT ?')
      .all(limit) as { body: string }[];
    return rows.map((r) => JSON.parse(r.body) as OrderEvent).reverse();
  }

  /**
   * Moves the WAL into the database file, on the checkpointer thread: bookkeeping, so it
   * follows the orders instead of holding them up. One at a time; a request while one
   * runs is dropped (the next poll asks again).
   */
  checkpoint(): void {
    if (this.path === ':memory:' || this.closed) return;
    // Every row of the pre-send log is in SQLite once the pending ones are: it starts over.
    this.foldPending();
    this.presend?.clear();
    this.checkpointer.request();
  }

  close(): void {
    if (this.closed) return;
    this.foldPending();
    this.presend?.close();
    this.closed = true;
    this.checkpointer.stop();
    // The last checkpoint runs here, on this connection, before it closes. (If the thread
    // was mid-checkpoint, this PASSIVE one may find the WAL busy and do less: nothing is
    // lost, the WAL is durable and folded in when the last connection closes.)
    this.db.pragma('wal_checkpoint(PASSIVE)');
    this.db.close();
    this.lock?.release();
  }
}
