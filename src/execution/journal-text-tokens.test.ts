import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { memoryLogger } from '../market-data/testing/fake-quote-source.ts';
import { ExecutionEngine } from './execution-engine.ts';
import { SqliteJournal } from './sqlite-journal.ts';
import { OPEN_SESSION, placeIntent, scriptedBroker } from './testing/engine-fixtures.ts';
import { trackedOrder } from './tracked-order.ts';
import { toPlaceRequest } from './wire-order.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A journal file as a release before numeric tokens wrote it: tokens as text everywhere. */
/** The order's and the fill's time: the day of the engine that recovers the journal below. */
const FILLED_AT = Date.parse('2026-11-20T09:30:00+05:30');

function oldJournal(): string {
  const dir = mkdtempSync(join(tmpdir(), 'journal-text-'));
  dirs.push(dir);
  const path = join(dir, 'journal.db');
  const journal = new SqliteJournal(path);
  const intent = placeIntent('e1', { quantity: 10 });
  const order = {
    ...trackedOrder({
      strategyId: 's1',
      intentId: 'e1',
      tag: 't1',
      intent,
      request: toPlaceRequest(intent, 't1', false),
      placedAt: FILLED_AT,
      orderId: 'N1',
    }),
    status: 'complete' as const,
    filledQuantity: 10,
  };
  journal.commit({
    orders: [order],
    fill: {
      fillId: 'f1',
      tag: 't1',
      strategyId: 's1',
      token: 3045,
      symbol: 'SBIN-EQ',
      side: 'B',
      quantity: 10,
      price: 80_000,
      // On the recovering engine's day: an intraday fill of an earlier day is closed.
      at: FILLED_AT,
    },
    at: FILLED_AT,
  });
  journal.close();
  // Rewrite the rows in the old form: the intent's token as a JSON string, the fill's as text.
  const db = new Database(path);
  const { body } = db.prepare('SELECT body FROM orders').get() as { body: string };
  const old = JSON.parse(body) as { intent: { instrument: { token: unknown } } };
  old.intent.instrument.token = '3045';
  db.prepare('UPDATE orders SET body = ?').run(JSON.stringify(old));
  db.prepare("UPDATE fills SET token = '3045'").run();
  db.close();
  return path;
}

describe('a journal written with text tokens', () => {
  it('loads them back as numbers', () => {
    // How this was checked: without the CAST and the Number() in SqliteJournal.load,
    // both tokens come back as '3045' and these fail.
    const journal = new SqliteJournal(oldJournal());
    const { orders, fills } = journal.load();
    journal.close();
    expect(orders[0]?.intent.instrument.token).toBe(3045);
    expect(fills[0]?.token).toBe(3045);
  });

  it('recovers into a numeric position', async () => {
    const journal = new SqliteJournal(oldJournal());
    const engine = new ExecutionEngine({
      broker: scriptedBroker().broker,
      clock: new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30')),
      logger: memoryLogger().logger,
      sessions: OPEN_SESSION,
      journal,
    });
    await engine.recover();
    expect(engine.positions.positions('s1')).toEqual([
      expect.objectContaining({ token: 3045, netQuantity: 10, averagePrice: 80_000 }),
    ]);
    await engine.stop?.();
    journal.close();
  });
});
