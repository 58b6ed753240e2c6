import type Database from 'better-sqlite3';
import DatabaseCtor from 'better-sqlite3';
import type { JournalFill, JournalSnapshot } from './journal.ts';
import { PresendLog, type PresendRow } from './presend-log.ts';
import type { TrackedOrder } from './tracked-order.ts';

/** An order as its JSON body holds it: the fill ids as an array, not a Set. */
export type StoredOrder = Omit<TrackedOrder, 'fills'> & { fills: string[] };

/**
 * The orders and fills of a journal database, oldest first, with `extra` order bodies
 * (pre-send log rows) added after them where SQLite has no row for their tag yet: a row
 * SQLite holds is the same state or a later one (as the fold at open keeps it).
 */
export function readSnapshot(
  db: Database.Database,
  extra: readonly PresendRow[] = [],
): JournalSnapshot {
  const bodies = (
    db.prepare('SELECT body FROM orders ORDER BY rowid').all() as { body: string }[]
  ).map((r) => r.body);
  const orders = bodies.map(parseOrder);
  const known = new Set(orders.map((o) => o.tag));
  for (const { body } of extra) {
    const order = parseOrder(body);
    if (known.has(order.tag)) continue;
    known.add(order.tag);
    orders.push(order);
  }
  const fills = db
    .prepare(
      // The column is TEXT (older rows, and SQLite's affinity turns numbers to text): read numbers.
      'SELECT fill_id AS fillId, tag, strategy_id AS strategyId, CAST(token AS INTEGER) AS token, symbol, side, quantity, price, at FROM fills ORDER BY rowid',
    )
    .all() as JournalFill[];
  return { orders, fills };
}

/** The value a journal's `meta` table holds under `key`, if any. */
export function readMeta(db: Database.Database, key: string): string | undefined {
  return (
    db.prepare('SELECT value FROM meta WHERE key = ?').get(key) as { value: string } | undefined
  )?.value;
}

function parseOrder(body: string): TrackedOrder {
  const stored = JSON.parse(body) as StoredOrder;
  // Journals written before tokens became numbers hold them as text.
  stored.intent.instrument.token = Number(stored.intent.instrument.token);
  return { ...stored, fills: new Set(stored.fills) } as TrackedOrder;
}

/**
 * A journal opened read-only, for the CLI's `orders` and `positions` while a bot may be
 * running on it: no fold, no write, no lock taken for writing. What the bot's pre-send log
 * holds (orders sent, not yet in SQLite) is merged in memory into what {@link load} shows.
 */
export class JournalReader {
  private readonly db: Database.Database;

  constructor(readonly path: string) {
    this.db = new DatabaseCtor(path, { readonly: true, fileMustExist: true });
  }

  /** Orders and fills, the pre-send log's rows merged in. */
  load(): JournalSnapshot {
    return readSnapshot(this.db, PresendLog.read(`${this.path}-presend`));
  }

  getMeta(key: string): string | undefined {
    return readMeta(this.db, key);
  }

  close(): void {
    this.db.close();
  }
}
