import { describe, expect, it } from 'vitest';
import type { OrderIntent } from '../../src/domain/intents.ts';
import { paperStateVenue, place, SBIN } from '../helpers/paper-state-venue.ts';

const START = Date.parse('2026-11-20T10:00:00+05:30');

describe('ctx.position and ctx.openOrders over the engine', () => {
  it('read fills and working orders synchronously, and the same after a restart', async () => {
    // How this was checked: with the context built without `state` (NO_STATE), every
    // read is flat and empty and this fails at the first working order.
    const venue = paperStateVenue(START);
    const first = venue.engine();
    first.start();
    const ctx = venue.context(first);
    expect(ctx.position(3045)).toMatchObject({ token: 3045, netQuantity: 0, averagePrice: 0 });
    await first.submit(place('e1'));
    await first.submit(place('rest', { quantity: 5, orderType: 'LMT', price: 79_000 }));
    // Placed and not yet seen in the book: already working.
    expect(ctx.openOrders(3045).map((o) => o.intentId)).toEqual(['e1', 'rest']);
    await venue.wait(2_000);
    const long = ctx.position(3045);
    expect(long).toMatchObject({
      strategyId: 's1',
      token: 3045,
      netQuantity: 10,
      symbol: 'SBIN-EQ',
    });
    expect(long.averagePrice).toBeGreaterThan(79_000);
    expect(ctx.openOrders()).toEqual([
      {
        intentId: 'rest',
        token: 3045,
        symbol: 'SBIN-EQ',
        side: 'B',
        quantity: 5,
        filledQuantity: 0,
        orderType: 'LMT',
        product: 'I',
        price: 79_000,
        status: 'open',
        system: false,
      },
    ]);
    expect(ctx.openOrders(1594)).toEqual([]);
    expect(venue.context(first, 'other').position(3045).netQuantity).toBe(0);
    await first.stop();

    // The bot restarts: a new engine over the same journal and venue.
    const second = venue.engine();
    await second.recover();
    second.start();
    const after = venue.context(second);
    // Marks wait for the next price; quantity, average and realised are recovered.
    const { netQuantity, averagePrice, realised } = long;
    expect(after.position(3045)).toMatchObject({ netQuantity, averagePrice, realised });
    expect(after.openOrders(3045).map((o) => [o.intentId, o.status, o.price])).toEqual([
      ['rest', 'open', 79_000],
    ]);
    await second.stop();
  });

  it("reflect the framework's square-off: its exit works, then the position is flat", async () => {
    // How this was checked: with `system` read as false (the exit shown as the strategy's
    // own order), this fails.
    const venue = paperStateVenue(START);
    const engine = venue.engine();
    engine.start();
    const ctx = venue.context(engine);
    await engine.submit(place('e1'));
    await engine.submit(place('rest', { quantity: 5, orderType: 'LMT', price: 79_000 }));
    await venue.wait(2_000);
    expect(ctx.position(3045).netQuantity).toBe(10);
    const squaring = engine.submit({ kind: 'squareOff', id: 'auto-eod-1', strategyId: 's1' });
    await venue.turn();
    await squaring;
    // The exit works; the rest order is listed until the book confirms its cancel.
    expect(
      ctx.openOrders(3045).map((o) => [o.intentId, o.side, o.quantity, o.system]),
    ).toContainEqual(['auto-eod-1:3045', 'S', 10, true]);
    await venue.wait(2_000);
    expect(ctx.position(3045).netQuantity).toBe(0);
    expect(ctx.position(3045).realised).not.toBe(0);
    expect(ctx.openOrders()).toEqual([]);
    await engine.stop();
  });

  it('reflect the kill switch: its flatten leaves the position flat and nothing working', async () => {
    // How this was checked: with flattenOnKill off (the switch trips but nothing is
    // squared off), netQuantity stays 10 and this fails: the reads follow the framework.
    const venue = paperStateVenue(START);
    const engine = venue.engine({ risk: { marketProtectionPercent: 0, dailyMaxLoss: 10_000 } });
    engine.start();
    const ctx = venue.context(engine);
    await engine.submit(place('e1'));
    await engine.submit(place('rest', { quantity: 5, orderType: 'LMT', price: 70_000 }));
    await venue.wait(2_000);
    expect(ctx.position(3045).netQuantity).toBe(10);
    // ₹20 down on 10 shares: a ₹200 loss, past the ₹100 limit; the mark trips the switch.
    await venue.price(78_000);
    engine.markAndCheck();
    await venue.wait(3_000);
    expect(engine.killed).toBe(true);
    expect(ctx.position(3045).netQuantity).toBe(0);
    expect(ctx.openOrders()).toEqual([]);
    await engine.stop();
  });

  it('ctx.intents.target: emits what reaches the target, and nothing when repeated', async () => {
    // How this was checked: with the factory built without the engine's state, the
    // repeated target places again (the second call returns a place intent).
    const venue = paperStateVenue(START);
    const engine = venue.engine();
    engine.start();
    const ctx = venue.context(engine);
    const emit = (intents: readonly OrderIntent[]) =>
      Promise.all(intents.map((i) => engine.submit({ ...i, strategyId: 's1' })));
    const long = { instrument: SBIN, quantity: 10, product: 'I' } as const;
    const first = ctx.intents.target(long);
    expect(first.map((i) => i.kind === 'place' && [i.side, i.quantity])).toEqual([['B', 10]]);
    const sent = emit(first);
    // The same instant, before any answer: the buy already counts.
    expect(ctx.intents.target(long)).toEqual([]);
    await sent;
    await venue.wait(2_000);
    expect(ctx.position(3045).netQuantity).toBe(10);
    expect(ctx.intents.target(long)).toEqual([]);
    // Reverse: an exit to flat, then the short entry.
    const reverse = ctx.intents.target({ ...long, quantity: -5 });
    expect(reverse.map((i) => i.kind === 'place' && [i.side, i.quantity])).toEqual([
      ['S', 10],
      ['S', 5],
    ]);
    await emit(reverse);
    await venue.wait(2_000);
    expect(ctx.position(3045).netQuantity).toBe(-5);
    expect(ctx.intents.target({ ...long, quantity: -5 })).toEqual([]);
    await engine.stop();
  });
});
