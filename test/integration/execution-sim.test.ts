import { describe, expect, it } from 'vitest';
import { placeIntent, until, useExecutionHarness } from '../helpers/execution-harness.ts';

const buy = placeIntent;
const setUp = useExecutionHarness();

describe('execution engine against the simulator over HTTP', () => {
  it('places a market order and reports its lifecycle in order, then the position', async () => {
    const { engine, events } = await setUp('2026-11-20T10:00:00+05:30');
    await engine.submit(buy('e1'));
    await engine.poll();
    expect(events.map((e) => e.type)).toEqual([
      'OrderSubmitted',
      'OrderAccepted',
      'OrderOpened',
      'OrderFilled',
    ]);
    expect(engine.positions.positions('s1')[0]).toMatchObject({ token: 3045, netQuantity: 10 });
    await engine.poll();
    expect(events).toHaveLength(4);
  });

  it('resolves a lost placement response by its tag: exactly one order', async () => {
    const { engine, events, client, sim } = await setUp('2026-11-20T10:00:00+05:30');
    sim.faults.set({ loseOrderResponses: 1 });
    await engine.submit(buy('e1'));
    expect(events.map((e) => e.type)).toEqual(['OrderSubmitted']);
    await engine.poll();
    const book = await client.orderBook();
    expect(book).toHaveLength(1);
    expect(engine.orders('s1')[0]?.orderId).toBe(book[0]?.id);
    expect(events.map((e) => e.type)).toContain('OrderFilled');
    expect(sim.stats.count('placeOrder')).toBe(1);
  });

  it('places once more, and only once, when a lost placement never reached the book', async () => {
    const { engine, events, clock, sim } = await setUp('2026-11-20T10:00:00+05:30');
    sim.faults.set({ dropRate: 1, routes: ['placeOrder'] });
    await engine.submit(buy('e1'));
    sim.faults.reset();
    await engine.poll();
    expect(sim.stats.count('placeOrder')).toBe(1);
    clock.advanceBy(6_000);
    await engine.poll();
    await new Promise((resolve) => setImmediate(resolve));
    await engine.poll();
    expect(sim.stats.count('placeOrder')).toBe(2);
    expect(events.filter((e) => e.type === 'OrderFilled')).toHaveLength(1);
  });

  it('defers an intent while the market is closed and sends it at the open; AMO goes at once', async () => {
    const { engine, events, clock, sim } = await setUp('2026-11-20T08:00:00+05:30');
    await engine.submit(buy('wait'));
    await engine.submit(buy('amo', { afterHours: 'amo', orderType: 'LMT', price: 70_000 }));
    expect(events.map((e) => [e.type, e.intentId])).toEqual([
      ['IntentDeferred', 'wait'],
      ['OrderSubmitted', 'amo'],
    ]);
    expect(sim.stats.count('placeOrder')).toBe(1);
    await clock.advanceToAsync(Date.parse('2026-11-20T09:15:00+05:30'));
    // The deferred intent is sent on the clock's timer; wait for its loopback I/O.
    await until(() => sim.stats.count('placeOrder') === 2);
    expect(sim.stats.count('placeOrder')).toBe(2);
  });

  it('sends nothing on a holiday', async () => {
    const { engine, events, sim } = await setUp('2026-11-24T11:00:00+05:30');
    await engine.submit(buy('h1'));
    expect(events.map((e) => e.type)).toEqual(['IntentDeferred']);
    expect(sim.stats.count('placeOrder')).toBe(0);
  });
});
