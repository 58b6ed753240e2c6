import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { OrderBookRecord } from '../../src/api/schemas/order-records.ts';
import type { Broker } from '../../src/execution/broker.ts';
import { SqliteJournal } from '../../src/execution/sqlite-journal.ts';
import { placeIntent, until, useExecutionHarness } from '../helpers/execution-harness.ts';

const setUp = useExecutionHarness();
const MORNING = '2026-11-20T10:00:00+05:30';
const journalPath = () => join(mkdtempSync(join(tmpdir(), 'tr-recovery-')), 'journal.sqlite');

/** The client, with order-book records of some tags hidden (a book that lags). */
function laggingBook(client: Broker, hidden: Set<string>): Broker {
  return {
    placeOrder: (v, r, s) => client.placeOrder(v, r, s),
    modifyOrder: (v, id, r, s) => client.modifyOrder(v, id, r, s),
    cancelOrder: (v, id, s) => client.cancelOrder(v, id, s),
    orderHistory: (id, s) => client.orderHistory(id, s),
    tradeBook: (s) => client.tradeBook(s),
    orderBook: async (s) =>
      (await client.orderBook(s)).filter((r: OrderBookRecord) => !hidden.has(r.tags)),
  };
}

describe('recovery and ambiguous placements', () => {
  it('does not place a third time after a restart that follows a re-placement', async () => {
    const harness = await setUp(MORNING);
    const { sim, clock, newEngine } = harness;
    const path = journalPath();
    const first = newEngine({ journal: new SqliteJournal(path) });
    sim.faults.set({ dropRate: 1, routes: ['placeOrder'] });
    await first.engine.submit(placeIntent('e1'));
    sim.faults.reset();
    clock.advanceBy(6_000);
    await first.engine.poll(); // absent past the grace period: placed once more
    expect(sim.stats.count('placeOrder')).toBe(2);
    await first.engine.stop();

    const second = newEngine({ journal: new SqliteJournal(path) });
    await second.engine.recover();
    clock.advanceBy(60_000);
    await second.engine.poll();
    await second.engine.poll();
    expect(sim.stats.count('placeOrder')).toBe(2);
    expect(sim.exchange.orderBook()).toHaveLength(1);
    expect(second.engine.orders().filter((o) => o.intentId === 'e1')).toHaveLength(1);
    await second.engine.stop();
  });

  it('never re-places, after a next-day restart, an order whose outcome was lost the day before', async () => {
    const harness = await setUp('2026-11-20T15:29:00+05:30');
    const { sim, clock, newEngine } = harness;
    const path = journalPath();
    const first = newEngine({ journal: new SqliteJournal(path) });
    sim.faults.set({ dropRate: 1, routes: ['placeOrder'] });
    await first.engine.submit(placeIntent('late'));
    sim.faults.reset();
    // Crash. The next trading day, the book no longer lists yesterday's orders.
    clock.advanceTo(Date.parse('2026-11-23T09:16:00+05:30'));
    const second = newEngine({ journal: new SqliteJournal(path) });
    await second.engine.recover();
    clock.advanceBy(60_000);
    await second.engine.poll();
    expect(sim.stats.count('placeOrder')).toBe(1);
    expect(second.engine.orders()[0]?.status).toBe('unresolved');
    expect(second.events.at(-1)).toMatchObject({ type: 'OrderRejected', intentId: 'late' });
    await second.engine.stop();
  });

  it('cancels the first attempt if it turns up after its re-placement, and counts its fills', async () => {
    const harness = await setUp(MORNING);
    const { sim, clock, client, newEngine } = harness;
    const hidden = new Set<string>();
    const { engine, events } = newEngine({ broker: laggingBook(client, hidden) });
    sim.faults.set({ loseOrderResponses: 1 });
    await engine.submit(placeIntent('e1'));
    const firstTag = engine.orders()[0]?.tag ?? '';
    hidden.add(firstTag); // the book does not show it in time
    clock.advanceBy(6_000);
    await engine.poll();
    expect(sim.stats.count('placeOrder')).toBe(2);
    hidden.clear(); // now it does
    await engine.poll();
    await engine.poll();
    const duplicate = engine.orders().find((o) => o.intentId === 'e1#duplicate');
    expect(duplicate?.tag).toBe(firstTag);
    // Both attempts filled at market: the position counts both, so nothing is lost.
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(20);
    expect(events.filter((e) => e.type === 'OrderFilled')).toHaveLength(2);
    await engine.stop();
  });

  it('does not move an order backwards when a poll sees it before the placement answers', async () => {
    const harness = await setUp(MORNING);
    const { client, newEngine } = harness;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inBook = false;
    const slow: Broker = {
      ...laggingBook(client, new Set()),
      placeOrder: async (v, r, s) => {
        const result = await client.placeOrder(v, r, s);
        inBook = true;
        await gate;
        return result;
      },
    };
    const { engine, events } = newEngine({ broker: slow });
    const placing = engine.submit(placeIntent('e1'));
    await until(() => inBook); // the service has it; its answer is held back
    await engine.poll();
    expect(engine.orders()[0]?.status).toBe('complete');
    release();
    await placing;
    expect(engine.orders()[0]?.status).toBe('complete');
    await engine.poll();
    expect(events.filter((e) => e.type === 'OrderFilled')).toHaveLength(1);
    await engine.stop();
  });

  it('sends nothing once stopped, even when stopped during a poll', async () => {
    const harness = await setUp(MORNING);
    const { sim, clock, engine } = harness;
    const ltp = sim.exchange.quote('ltp', 3045).ltp;
    await engine.submit(
      placeIntent('rest', { orderType: 'LMT', price: Math.floor((ltp * 0.97) / 5) * 5 }),
    );
    engine.start();
    clock.advanceBy(1_000); // a poll starts
    await engine.stop();
    const after = sim.stats.total;
    clock.advanceBy(10_000);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sim.stats.total).toBe(after);
  });
});
