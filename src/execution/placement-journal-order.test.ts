import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlaceOrderResult } from '../api/schemas/order-requests.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import type { Broker } from './broker.ts';
import { MemoryJournal } from './journal.ts';
import { SqliteJournal } from './sqlite-journal.ts';
import { engineOn, placeIntent, scriptedBroker, settle } from './testing/engine-fixtures.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const T0 = Date.parse('2026-11-20T10:00:00+05:30');

describe('placement: what the journal holds when the request leaves', () => {
  it('holds the order row with its tag before the send; the OrderSubmitted row follows it', async () => {
    // Checked to fail both ways: with the order row written after the send, the row is
    // missing at the send; with the event row written before it (as before), it is there.
    // Also fails without the pre-send log emptied at open (review 13 M2): the seeded torn
    // tail swallows the new row and the restart from the copy does not know the tag.
    const dir = mkdtempSync(join(tmpdir(), 'placement-order-'));
    dirs.push(dir);
    const path = join(dir, 'journal.db');
    // An earlier process died mid-write: its last pre-send line is torn.
    writeFileSync(`${path}-presend`, '1004\t{"tag":"s1-earlier","strat');
    const clock = new VirtualClock(T0);
    const scripted = scriptedBroker({ books: 'empty' });
    const atSend: { rows: { tag: string; status: string }[]; submittedRows: number }[] = [];
    let recoveredAtSend: { tag: string; status: string }[] = [];
    const broker: Broker = {
      ...scripted.broker,
      placeOrder: async (variety, request) => {
        // A kill -9 now, then a restart: the journal's files as they are at this instant,
        // copied, and a journal opened on the copy (it folds what the pre-send log holds).
        const copy = mkdtempSync(join(tmpdir(), 'placement-copy-'));
        dirs.push(copy);
        for (const suffix of ['', '-wal', '-presend'])
          if (existsSync(`${path}${suffix}`))
            copyFileSync(`${path}${suffix}`, join(copy, `journal.db${suffix}`));
        const db = new Database(path, { readonly: true });
        const submittedRows = (
          db.prepare("SELECT count(*) AS n FROM events WHERE type = 'OrderSubmitted'").get() as {
            n: number;
          }
        ).n;
        db.close();
        const loaded = new SqliteJournal(join(copy, 'journal.db'));
        atSend.push({
          rows: loaded.load().orders.map((o) => ({ tag: o.tag, status: o.status })),
          submittedRows,
        });
        loaded.close();
        // Recovery from the copy finds the order by its tag, outcome unknown.
        const restarted = engineOn(
          scripted.broker,
          clock,
          new SqliteJournal(join(copy, 'journal.db')),
        );
        await restarted.recover();
        recoveredAtSend = restarted.orders().map((o) => ({ tag: o.tag, status: o.status }));
        restarted.close();
        return scripted.broker.placeOrder(variety, request);
      },
    };
    const engine = engineOn(broker, clock, new SqliteJournal(path));
    await engine.submit(placeIntent('e1'));

    const [tag] = scripted.placed.map((p) => p.tag);
    expect(tag).toBeDefined();
    expect(atSend).toEqual([{ rows: [{ tag, status: 'submitting' }], submittedRows: 0 }]);
    expect(recoveredAtSend).toEqual([{ tag, status: 'unknown' }]);
    engine.close();
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT tag, status, order_id AS orderId FROM orders').all()).toEqual([
      { tag, status: 'pending', orderId: 'N1' },
    ]);
    expect(
      (db.prepare('SELECT body FROM events').all() as { body: string }[]).map(
        (r) => (JSON.parse(r.body) as OrderEvent).type,
      ),
    ).toEqual(['OrderSubmitted']);
    db.close();
  });

  it('journals events in the order they were published, and writes a waiting row at close', async () => {
    // Checked to fail: dropping the waiting rows at close loses the second OrderSubmitted;
    // writing them after the commit's own event reorders the journal.
    const clock = new VirtualClock(T0);
    const journal = new MemoryJournal();
    const scripted = scriptedBroker({ books: 'empty' });
    let answerFirst: (r: PlaceOrderResult) => void = () => undefined;
    let calls = 0;
    const broker: Broker = {
      ...scripted.broker,
      placeOrder: (variety, request) => {
        calls += 1;
        // The first answer waits; the third never comes.
        if (calls === 1)
          return new Promise((resolve) => {
            answerFirst = resolve;
          });
        if (calls === 3) return new Promise(() => undefined);
        return scripted.broker.placeOrder(variety, request);
      },
    };
    const engine = engineOn(broker, clock, journal);
    const published: string[] = [];
    engine.events$.subscribe((e) => published.push(`${e.type} ${e.intentId}`));
    void engine.submit(placeIntent('e1'));
    // Denied while e1's row still waits: its own row must come after e1's.
    await engine.submit(placeIntent('e3', { quantity: 0 }));
    await engine.submit(placeIntent('e2'));
    answerFirst({ orderNo: 'N9' } as PlaceOrderResult);
    await settle();
    void engine.submit(placeIntent('e4'));
    await settle();
    engine.close();

    expect(published).toEqual([
      'OrderSubmitted e1',
      'OrderDenied e3',
      'OrderSubmitted e2',
      'OrderSubmitted e4',
    ]);
    expect(journal.events.map((e) => `${e.type} ${e.intentId}`)).toEqual(published);
  });
});
