import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteJournal } from '../../src/execution/sqlite-journal.ts';
import { placeIntent, until, useExecutionHarness } from '../helpers/execution-harness.ts';

const MORNING = '2026-11-20T10:00:00+05:30';
const setUp = useExecutionHarness();
const types = (events: { type: string }[]) => events.map((e) => e.type);

describe('execution against the simulator: lifecycle', () => {
  it('reports partial fills of an order larger than the top of the book', async () => {
    const { engine, events, sim } = await setUp(MORNING);
    const depth = sim.exchange.quote('full', 3045).asks;
    const topTwo = (depth[0]?.quantity ?? 0) + (depth[1]?.quantity ?? 0);
    await engine.submit(placeIntent('big', { quantity: topTwo }));
    await engine.poll();
    const fills = events.filter(
      (e) => e.type === 'OrderPartiallyFilled' || e.type === 'OrderFilled',
    );
    expect(fills.length).toBeGreaterThanOrEqual(2);
    expect(fills.at(-1)?.type).toBe('OrderFilled');
    expect(fills.slice(0, -1).every((e) => e.type === 'OrderPartiallyFilled')).toBe(true);
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(topTwo);
  });

  it('reports a rejection with the exchange reason', async () => {
    const { engine, events } = await setUp(MORNING);
    await engine.submit(placeIntent('far', { orderType: 'LMT', price: 1_000 }));
    await engine.poll();
    const rejected = events.find((e) => e.type === 'OrderRejected');
    expect(rejected).toBeDefined();
    expect(rejected?.type === 'OrderRejected' && rejected.reason).toMatch(/price band/i);
  });

  it('modifies and cancels a resting limit order', async () => {
    const { engine, events, sim } = await setUp(MORNING);
    const ltp = sim.exchange.quote('ltp', 3045).ltp;
    const below = Math.floor((ltp * 0.97) / 5) * 5;
    await engine.submit(placeIntent('rest', { orderType: 'LMT', price: below }));
    await engine.poll();
    expect(types(events)).toEqual(['OrderSubmitted', 'OrderAccepted', 'OrderOpened']);
    await engine.submit({
      kind: 'modify',
      id: 'm1',
      target: 'rest',
      strategyId: 's1',
      price: below - 100,
    });
    await engine.poll();
    expect(events.at(-1)).toMatchObject({ type: 'OrderModified', price: below - 100 });
    await engine.submit({ kind: 'cancel', id: 'c1', target: 'rest', strategyId: 's1' });
    await engine.poll();
    expect(events.at(-1)).toMatchObject({ type: 'OrderCancelled', filledQuantity: 0 });
  });

  it('cancels and places anew instead of a 26th modification', async () => {
    const { engine, sim } = await setUp(MORNING);
    const ltp = sim.exchange.quote('ltp', 3045).ltp;
    const below = Math.floor((ltp * 0.97) / 5) * 5;
    await engine.submit(placeIntent('rest', { orderType: 'LMT', price: below }));
    for (let i = 1; i <= 26; i++) {
      await engine.submit({
        kind: 'modify',
        id: `m${i}`,
        target: 'rest',
        strategyId: 's1',
        price: below - 5 * i,
      });
    }
    expect(sim.stats.count('modifyOrder')).toBe(25);
    expect(sim.stats.count('cancelOrder')).toBe(1);
    expect(sim.stats.count('placeOrder')).toBe(2);
    const book = sim.exchange.orderBook();
    expect(book.map((o) => o.orderStatus).sort()).toEqual(['CANCELED', 'OPEN']);
  });
});

describe('execution against the simulator: kill switch that flattens', () => {
  it('cancels open orders and squares off every position when it trips', async () => {
    let mark = 0;
    const { engine, events, sim } = await setUp(MORNING, {
      risk: { dailyMaxLoss: 10_000, flattenOnKill: true },
      quote: () => (mark === 0 ? undefined : { ltp: mark, lowerLimit: 0, upperLimit: 0 }),
    });
    const ltp = sim.exchange.quote('ltp', 3045).ltp;
    await engine.submit(placeIntent('entry', { quantity: 10 }));
    await engine.submit(
      placeIntent('resting', { orderType: 'LMT', price: Math.floor((ltp * 0.97) / 5) * 5 }),
    );
    await engine.poll();
    mark = (engine.positions.positions('s1')[0]?.averagePrice ?? 0) - 2_000;
    engine.markAndCheck();
    await until(() => sim.stats.count('placeOrder') === 3);
    await engine.poll();
    expect(engine.killed).toBe(true);
    expect(sim.stats.count('cancelOrder')).toBe(1);
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(events.some((e) => e.type === 'OrderCancelled' && e.intentId === 'resting')).toBe(true);
  });
});

describe('execution against the simulator: the kill switch counts one day at a time', () => {
  it("does not carry yesterday's loss into today, and trips on today's", async () => {
    let mark = 0;
    const { engine, clock } = await setUp('2026-11-20T10:00:00+05:30', {
      risk: { dailyMaxLoss: 1_500, flattenOnKill: false },
      quote: () => (mark === 0 ? undefined : { ltp: mark, lowerLimit: 0, upperLimit: 0 }),
    });
    // Delivery: carried into Monday (an intraday position would be closed with Friday).
    await engine.submit(placeIntent('entry', { quantity: 10, product: 'C' }));
    await engine.poll();
    const entry = engine.positions.positions('s1')[0]?.averagePrice ?? 0;
    mark = entry - 100; // -1,000 today: under the limit
    engine.markAndCheck();
    expect(engine.killed).toBe(false);
    clock.advanceTo(Date.parse('2026-11-23T10:00:00+05:30'));
    engine.markAndCheck(); // Monday starts at -1,000
    mark = entry - 200; // -1,000 more on Monday
    engine.markAndCheck();
    expect(engine.killed).toBe(false);
    mark = entry - 260; // -1,600 on Monday
    engine.markAndCheck();
    expect(engine.killed).toBe(true);
  });
});

describe('execution against the simulator: cover orders', () => {
  it('follows the stop leg of a cover order: its fill flattens the position', async () => {
    const { engine, events, sim, clock } = await setUp(MORNING);
    const ltp = sim.exchange.quote('ltp', 3045).ltp;
    await engine.submit(
      placeIntent('cover', { variety: 'cover', bookLossPrice: Math.floor(ltp / 5) * 5 - 5 }),
    );
    await engine.poll();
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(10);
    for (
      let i = 0;
      i < 600 && !events.some((e) => e.type === 'OrderFilled' && e.intentId === 'cover/stop');
      i++
    ) {
      clock.advanceBy(5_000);
      await engine.poll();
    }
    const stop = events.filter((e) => e.intentId === 'cover/stop').map((e) => e.type);
    expect(stop).toContain('OrderFilled');
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(engine.orders('s1').find((o) => o.intentId === 'cover/stop')?.tag).toMatch(/\/SL$/);
  });
});

describe('execution against the simulator: faults and recovery', () => {
  it('after a crash, recovers from the journal: state equals the books and no tag appears twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-journal-'));
    const path = join(dir, 'journal.sqlite');
    const { sim, client, clock, newEngine } = await setUp(MORNING);
    const first = newEngine({ journal: new SqliteJournal(path) });
    const ltp = sim.exchange.quote('ltp', 3045).ltp;
    await first.engine.submit(placeIntent('filled'));
    await first.engine.submit(
      placeIntent('resting', { orderType: 'LMT', price: Math.floor((ltp * 0.97) / 5) * 5 }),
    );
    sim.faults.set({ loseOrderResponses: 1 });
    await first.engine.submit(placeIntent('in-flight', { quantity: 5 }));
    // Crash (kill -9): no stop, no poll, no close. The journal holds what was written.
    // While down, the resting order is cancelled from another terminal.
    const resting = (await client.orderBook()).find((o) => o.orderStatus === 'OPEN');
    expect(resting).toBeDefined();
    await client.cancelOrder('regular', resting?.id ?? '');
    clock.advanceBy(60_000);

    const second = newEngine({ journal: new SqliteJournal(path) });
    await second.engine.recover();
    await second.engine.poll();

    const book = await client.orderBook();
    const trades = await client.tradeBook();
    const tags = book.map((o) => o.tags);
    expect(new Set(tags).size).toBe(tags.length);
    expect(book).toHaveLength(3);
    const mine = second.engine.orders();
    for (const record of book) {
      const order = mine.find((o) => o.tag === record.tags);
      expect(order?.orderId).toBe(record.id);
    }
    expect(mine.find((o) => o.intentId === 'resting')?.status).toBe('cancelled');
    expect(mine.find((o) => o.intentId === 'in-flight')?.status).toBe('complete');
    const bought = trades.reduce((sum, t) => sum + Number(t.fillQuantity), 0);
    expect(second.engine.positions.positions('s1')[0]?.netQuantity).toBe(bought);
    expect(types(second.events)).toContain('OrderCancelled');
    expect(sim.stats.count('placeOrder')).toBe(3);
    second.engine.close();
  });

  it('pauses on an expired token, sends nothing, and resumes with a new one without losing the intent', async () => {
    const { engine, events, sim, client } = await setUp(
      MORNING,
      {},
      { tokenExpiresAt: Date.parse(MORNING) },
    );
    await engine.submit(placeIntent('e1'));
    expect(engine.pausedReason).toMatch(/session expired/);
    expect(types(events)).toEqual(['OrderSubmitted', 'IntentDeferred']);
    await engine.submit(placeIntent('e2'));
    expect(sim.stats.count('placeOrder')).toBe(1);
    sim.setCredentials({ token: 'fresh-token' });
    client.setCredentials({ appId: 'sim-app', token: 'fresh-token' });
    engine.resume();
    await until(() => events.filter((e) => e.type === 'OrderSubmitted').length === 3);
    await until(() => sim.stats.count('placeOrder') === 3);
    await engine.poll();
    expect(
      events
        .filter((e) => e.type === 'OrderFilled')
        .map((e) => e.intentId)
        .sort(),
    ).toEqual(['e1', 'e2']);
  });

  it('trips the kill switch at the daily loss limit: entries denied, exits allowed, book flattened', async () => {
    let mark = 0;
    const { engine, events, sim } = await setUp(MORNING, {
      risk: { dailyMaxLoss: 10_000, flattenOnKill: false },
      quote: () => (mark === 0 ? undefined : { ltp: mark, lowerLimit: 0, upperLimit: 0 }),
    });
    await engine.submit(placeIntent('entry', { quantity: 10 }));
    await engine.poll();
    const entryPrice = engine.positions.positions('s1')[0]?.averagePrice ?? 0;
    mark = entryPrice - 2_000;
    engine.markAndCheck();
    expect(engine.killed).toBe(true);
    await engine.submit(placeIntent('more'));
    expect(events.at(-1)).toMatchObject({ type: 'OrderDenied', intentId: 'more' });
    expect((events.at(-1) as { reason: string }).reason).toMatch(/kill switch/);
    await engine.submit(placeIntent('exit', { side: 'S', quantity: 10 }));
    expect(events.at(-1)).toMatchObject({ type: 'OrderSubmitted', intentId: 'exit' });
    expect(sim.stats.count('placeOrder')).toBe(2);
  });
});
