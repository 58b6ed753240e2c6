import { describe, expect, it } from 'vitest';
import type { OrderEvent } from '../../domain/order-events.ts';
import type { PaperBroker } from '../../paper/paper-broker.ts';
import { bracketIntent, paperBracketVenue } from '../../paper/testing/paper-bracket-venue.ts';
import { sbinFullQuote } from '../../paper/testing/sbin-full-quote.ts';

/** Working orders at the venue: [order type, trigger or price in rupees, quantity]. */
async function working(broker: PaperBroker): Promise<Array<[string, string, string]>> {
  return (await broker.orderBook())
    .filter((o) => o.orderStatus === 'OPEN' || o.orderStatus === 'PENDING')
    .map((o) => [o.order, o.order === 'LMT' ? o.price : o.orderTriggerPrice, o.quantity]);
}

const ofType = (events: OrderEvent[], type: OrderEvent['type']) =>
  events.filter((e) => e.type === type).map((e) => e.intentId);

describe('BracketManager across a restart (the journal)', () => {
  it('keeps managing a bracket after a crash: no duplicate legs, the stop trails on, the pair still cancels', async () => {
    const venue = paperBracketVenue();
    const first = venue.engine();
    first.engine.start();
    await first.engine.submit(
      bracketIntent('b1', { target: { points: 1_000 }, trailing: { points: 400 } }),
    );
    await venue.price(80_000);
    expect(await working(venue.broker)).toEqual([
      ['LMT', '810.05', '10'],
      ['SL-MKT', '796.05', '10'],
    ]);
    // A crash: the engine stops placing and tracking; the venue goes on.
    await first.engine.stop();
    await venue.price(80_100);
    const second = venue.engine();
    await second.engine.recover();
    second.engine.start();
    expect(second.engine.brackets.size).toBe(1);
    await venue.price(80_600);
    expect(ofType(second.events, 'OrderSubmitted')).toEqual([]);
    expect(await working(venue.broker)).toEqual([
      ['LMT', '810.05', '10'],
      ['SL-MKT', '802.00', '10'],
    ]);
    await venue.price(81_100);
    await venue.price(81_100);
    expect(ofType(second.events, 'OrderFilled')).toEqual(['b1/tp']);
    expect(ofType(second.events, 'OrderCancelled')).toEqual(['b1/sl']);
    expect(await working(venue.broker)).toEqual([]);
    expect(second.engine.brackets.size).toBe(0);
    await second.engine.stop();
  });

  it('cancels the target at the next start when the stop filled while the bot was down', async () => {
    const venue = paperBracketVenue();
    const first = venue.engine();
    first.engine.start();
    await first.engine.submit(bracketIntent('b1', { target: { points: 1_000 } }));
    await venue.price(80_000);
    await first.engine.stop();
    await venue.price(79_500);
    const second = venue.engine();
    await second.engine.recover();
    second.engine.start();
    await venue.wait();
    expect(ofType(second.events, 'OrderFilled')).toEqual(['b1/sl']);
    expect(ofType(second.events, 'OrderCancelled')).toEqual(['b1/tp']);
    expect(await working(venue.broker)).toEqual([]);
    expect(second.engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(second.engine.brackets.size).toBe(0);
    await second.engine.stop();
  });

  it('a cancel-entries stop keeps the stop and cancels the target; the next start places the target again', async () => {
    const venue = paperBracketVenue();
    const first = venue.engine();
    first.engine.start();
    await first.engine.submit(bracketIntent('b1', { target: { points: 1_000 } }));
    await venue.price(80_000);
    const stopping = first.engine.shutdown('cancel-entries', { retryMs: 250 });
    for (let i = 0; i < 10; i++) await venue.wait();
    await stopping;
    expect(await working(venue.broker)).toEqual([['SL-MKT', '796.05', '10']]);
    const second = venue.engine();
    await second.engine.recover();
    second.engine.start();
    await venue.wait();
    expect(ofType(second.events, 'OrderSubmitted')).toEqual(['b1#2/tp']);
    expect(await working(venue.broker)).toEqual([
      ['LMT', '810.05', '10'],
      ['SL-MKT', '796.05', '10'],
    ]);
    await second.engine.stop();
  });
});

describe('BracketManager: square-off and kill switch end the bracket', () => {
  it("a strategy's square-off cancels the legs, closes the position, and nothing is placed again", async () => {
    const venue = paperBracketVenue();
    const { engine, events } = venue.engine();
    engine.start();
    await engine.submit(
      bracketIntent('b1', { target: { points: 1_000 }, trailing: { points: 400 } }),
    );
    await venue.price(80_000);
    await engine.submit({ kind: 'squareOff', id: 'x1', strategyId: 's1', token: 3045 });
    await venue.price(80_500);
    await venue.price(80_900);
    expect(engine.brackets.size).toBe(0);
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(await working(venue.broker)).toEqual([]);
    expect(ofType(events, 'OrderSubmitted')).toEqual(['b1', 'b1/sl', 'b1/tp', 'x1:3045']);
    await engine.stop();
  });

  it('the kill switch (flattenOnKill) ends the bracket before its flatten', async () => {
    const venue = paperBracketVenue();
    const { engine, events } = venue.engine({
      risk: { marketProtectionPercent: 0, dailyMaxLoss: 2_000, flattenOnKill: true },
    });
    engine.start();
    await engine.submit(bracketIntent('b1', { target: { points: 1_000 } }));
    await venue.price(80_000);
    engine.markAndCheck();
    // 10 × (800.05 − 797.00) = ₹30.50 lost: beyond the ₹20 limit, above the stop.
    await venue.price(79_700);
    engine.markAndCheck();
    await venue.price(79_700);
    await venue.price(79_700);
    expect(engine.killed).toBe(true);
    expect(engine.brackets.size).toBe(0);
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(await working(venue.broker)).toEqual([]);
    expect(ofType(events, 'OrderSubmitted').filter((id) => id.includes('/'))).toEqual([
      'b1/sl',
      'b1/tp',
    ]);
    await engine.stop();
  });

  it('a stop just after the buy-back of both legs filled does not buy back again at the next start', async () => {
    const venue = paperBracketVenue();
    const first = venue.engine();
    first.engine.start();
    await first.engine.submit(bracketIntent('b1', { target: { points: 1_000 } }));
    await venue.price(80_000);
    // Stopped between the exit's placement and the journal's save of the ended bracket.
    let stopping: Promise<void> | undefined;
    first.engine.events$.subscribe((e) => {
      if (stopping === undefined && e.type === 'OrderSubmitted' && e.intentId === 'b1/exit')
        stopping = first.engine.stop();
    });
    // Both legs fill within one read of the books: the target, then the stop.
    venue.feed.next(sbinFullQuote(81_200, venue.clock.now()));
    await venue.turn();
    venue.feed.next(sbinFullQuote(79_000, venue.clock.now()));
    await venue.turn();
    for (let i = 0; i < 4; i++) await venue.wait();
    expect(stopping).toBeDefined();
    await stopping;
    const second = venue.engine();
    await second.engine.recover();
    second.engine.start();
    for (let i = 0; i < 4; i++) await venue.wait();
    expect(ofType(second.events, 'OrderSubmitted')).toEqual([]);
    expect(second.engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(second.engine.brackets.size).toBe(0);
    await second.engine.stop();
  });
});
