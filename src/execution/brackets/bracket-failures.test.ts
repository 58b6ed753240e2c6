import { describe, expect, it } from 'vitest';
import { bracketIntent, paperBracketVenue } from '../../paper/testing/paper-bracket-venue.ts';

type Venue = ReturnType<typeof paperBracketVenue>;

/** Orders working at the venue: [order type, side, quantity]. */
async function working(venue: Venue): Promise<string[][]> {
  return (await venue.broker.orderBook())
    .filter((o) => o.orderStatus === 'OPEN' || o.orderStatus === 'PENDING')
    .map((o) => [o.order, o.transactionType ?? '', o.quantity]);
}

describe('BracketManager: a leg that fails never leaves the position naked', () => {
  it('exits at market when the price already passed the stop once the entry filled', async () => {
    const venue = paperBracketVenue();
    const { engine, events } = venue.engine();
    engine.start();
    await venue.price(81_000);
    await engine.submit(
      bracketIntent('b1', {
        entry: { orderType: 'LMT', price: 80_500 },
        stopLoss: { price: 80_000 },
        target: { price: 82_000 },
      }),
    );
    await venue.price(81_000);
    // A gap down through the entry and the stop: the entry fills at 795.05.
    await venue.price(79_500);
    for (let i = 0; i < 3; i++) await venue.wait();
    const fills = events.filter((e) => e.type === 'OrderFilled').map((e) => e.intentId);
    expect(fills).toEqual(['b1', 'b1/exit']);
    expect(events.some((e) => e.type === 'OrderSubmitted' && e.intentId === 'b1/tp')).toBe(false);
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(await working(venue)).toEqual([]);
    expect(engine.brackets.size).toBe(0);
    await engine.stop();
  });

  it('flattens when risk denies the stop (outside the price band), placing no target', async () => {
    const venue = paperBracketVenue();
    const { engine, events } = venue.engine();
    engine.start();
    await engine.submit(
      bracketIntent('b1', { stopLoss: { price: 71_000 }, target: { points: 800 } }),
    );
    await venue.price(80_000);
    for (let i = 0; i < 3; i++) await venue.wait();
    const denied = events.filter((e) => e.type === 'OrderDenied').map((e) => e.intentId);
    expect(denied).toEqual(['b1/sl']);
    const fills = events.filter((e) => e.type === 'OrderFilled').map((e) => e.intentId);
    expect(fills).toEqual(['b1', 'b1/exit']);
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(await working(venue)).toEqual([]);
    expect(engine.brackets.size).toBe(0);
    await engine.stop();
  });

  it('keeps a bracket whose exit is denied, and exits at the next step: never ended naked', async () => {
    const venue = paperBracketVenue();
    // The quote risk values a market order at; above ₹810 the exit of 10 is past the limit.
    let ltp = 80_000;
    const { engine, events } = venue.engine({
      quote: () => ({ ltp, lowerLimit: 72_000, upperLimit: 88_000 }),
      risk: { marketProtectionPercent: 0, maxOrderValue: 810_000 },
    });
    engine.start();
    await engine.submit(
      bracketIntent('b1', { stopLoss: { price: 71_000 }, target: { points: 800 } }),
    );
    ltp = 90_000;
    await venue.price(80_000);
    for (let i = 0; i < 3; i++) await venue.wait();
    const denied = events.filter((e) => e.type === 'OrderDenied').map((e) => e.intentId);
    expect(denied.slice(0, 2)).toEqual(['b1/sl', 'b1/exit']);
    // Checked to fail: before, the bracket ended "flattened" here with the position open.
    expect(engine.brackets.size).toBe(1);
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(10);
    ltp = 80_000;
    await venue.price(80_000);
    for (let i = 0; i < 3; i++) await venue.wait();
    const fills = events.filter((e) => e.type === 'OrderFilled').map((e) => e.intentId);
    expect(fills).toEqual(['b1', 'b1/exit']);
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(engine.brackets.size).toBe(0);
    await engine.stop();
  });

  it('places both legs past the daily order budget: an exit is never held back by a count', async () => {
    const venue = paperBracketVenue();
    const { engine, events } = venue.engine({
      risk: { marketProtectionPercent: 0, maxOrdersPerDay: 1, maxOpenOrders: 1 },
    });
    engine.start();
    await engine.submit(bracketIntent('b1', { target: { points: 800 } }));
    await venue.price(80_000);
    await venue.wait();
    expect(events.filter((e) => e.type === 'OrderDenied')).toEqual([]);
    expect((await working(venue)).sort()).toEqual([
      ['LMT', 'S', '10'],
      ['SL-MKT', 'S', '10'],
    ]);
    // A new entry is still held to the budget.
    await engine.submit({
      kind: 'place',
      strategyId: 's1',
      id: 'more',
      instrument: bracketIntent('x').instrument,
      side: 'B',
      quantity: 1,
      orderType: 'MKT',
      product: 'I',
    });
    expect(events.filter((e) => e.type === 'OrderDenied').map((e) => e.intentId)).toEqual(['more']);
    await engine.stop();
  });

  it('buys back the excess when both legs filled (the target could not be cancelled)', async () => {
    const venue = paperBracketVenue();
    const { engine, events } = venue.engine();
    const cancelOrder = venue.broker.cancelOrder.bind(venue.broker);
    const book = () => venue.broker.orderBook();
    venue.broker.cancelOrder = async (variety, orderId) => {
      const order = (await book()).find((o) => o.id === orderId);
      if (order?.order === 'LMT') throw new Error('cancel refused');
      return cancelOrder(variety, orderId);
    };
    engine.start();
    await engine.submit(bracketIntent('b1', { target: { points: 800 } }));
    await venue.price(80_000);
    await venue.price(79_500);
    await venue.price(79_500);
    // The stop filled; the target stays working, then fills too.
    await venue.price(80_900);
    await venue.price(80_900);
    for (let i = 0; i < 3; i++) await venue.wait();
    const fills = events.filter((e) => e.type === 'OrderFilled').map((e) => e.intentId);
    expect(fills).toEqual(['b1', 'b1/sl', 'b1/tp', 'b1/exit']);
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(engine.brackets.size).toBe(0);
    await engine.stop();
  });
});

describe('BracketManager: modifications', () => {
  it('replaces a leg past the modification limit itself: a poll in the gap does not end the bracket', async () => {
    const venue = paperBracketVenue();
    const { engine } = venue.engine({ maxModifications: 1 });
    const history = venue.broker.orderHistory.bind(venue.broker);
    // As a live 1 s poll may: the tracker reads the books while a replacement is under way.
    venue.broker.orderHistory = async (id) => {
      await engine.poll();
      return history(id);
    };
    const cancelOrder = venue.broker.cancelOrder.bind(venue.broker);
    venue.broker.cancelOrder = async (variety, orderId) => {
      const done = await cancelOrder(variety, orderId);
      await engine.poll();
      return done;
    };
    engine.start();
    await engine.submit(
      bracketIntent('b1', { trailing: { points: 300 }, target: { points: 5000 } }),
    );
    await venue.price(80_000);
    for (let mid = 80_400; mid <= 81_000; mid += 100) await venue.price(mid);
    expect(engine.brackets.size).toBe(1);
    expect((await working(venue)).sort()).toEqual([
      ['LMT', 'S', '10'],
      ['SL-MKT', 'S', '10'],
    ]);
    // The target fills: the stop goes with it, and nothing sells again on the way down.
    await venue.price(85_100);
    await venue.price(85_100);
    await venue.price(80_000);
    await venue.price(80_000);
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(await working(venue)).toEqual([]);
    await engine.stop();
  });

  it('sends a refused modification again: the stop follows a partial target fill', async () => {
    // 100 a side at each quote: a buy of 250 fills 100, 100, then 50.
    const venue = paperBracketVenue({ depth: 100 });
    const { engine, events } = venue.engine();
    const modify = venue.broker.modifyOrder.bind(venue.broker);
    let refused = 0;
    venue.broker.modifyOrder = async (variety, orderId, request) => {
      if (request.quantity === '150' && refused === 0) {
        refused += 1;
        throw new Error('modify refused (RMS: temporary)');
      }
      return modify(variety, orderId, request);
    };
    engine.start();
    await engine.submit(
      bracketIntent('b1', {
        quantity: 250,
        entry: { orderType: 'LMT', price: 80_005 },
        target: { points: 800 },
      }),
    );
    await venue.wait();
    await venue.price(80_000);
    await venue.price(80_000);
    // The target fills 100 of 250; the stop's shrink to 150 is refused once.
    await venue.price(80_900);
    // The next prices send it again.
    for (const mid of [80_600, 80_500, 80_400, 80_300]) await venue.price(mid);
    expect(refused).toBe(1);
    expect(events.some((e) => e.type === 'OrderDenied' && e.intentId === 'b1/sl~m')).toBe(true);
    const stop = engine.orders('s1').find((o) => o.intentId === 'b1/sl');
    expect(stop?.request.quantity).toBe('150');
    // Through the stop: it sells the 150 left, not 250.
    await venue.price(79_000);
    await venue.price(79_000);
    await venue.wait();
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(engine.brackets.size).toBe(0);
    await engine.stop();
  });
});
