import { describe, expect, it } from 'vitest';
import type { PaperBroker } from '../../paper/paper-broker.ts';
import { bracketIntent, paperBracketVenue } from '../../paper/testing/paper-bracket-venue.ts';

/** The stop orders working at the venue: [tag, trigger in rupees, quantity]. */
async function workingStops(broker: PaperBroker): Promise<Array<[string, string, string]>> {
  return (await broker.orderBook())
    .filter(
      (o) => o.order === 'SL-MKT' && (o.orderStatus === 'OPEN' || o.orderStatus === 'PENDING'),
    )
    .map((o) => [o.tags, o.orderTriggerPrice, o.quantity]);
}

describe('BracketManager: the trailing stop', () => {
  it('follows the best price at its distance, in favour only, and exits when the price comes back', async () => {
    const venue = paperBracketVenue();
    const { engine, events } = venue.engine();
    engine.start();
    await engine.submit(bracketIntent('b1', { trailing: { points: 400 } }));
    await venue.price(80_000);
    // Bought at 800.05: the stop starts 4.00 below.
    expect((await workingStops(venue.broker)).map(([, trigger]) => trigger)).toEqual(['796.05']);
    await venue.price(80_500);
    expect((await workingStops(venue.broker)).map(([, trigger]) => trigger)).toEqual(['801.00']);
    // Down again, not through the stop: the stop stays where it was.
    await venue.price(80_300);
    expect((await workingStops(venue.broker)).map(([, trigger]) => trigger)).toEqual(['801.00']);
    await venue.price(80_700);
    expect((await workingStops(venue.broker)).map(([, trigger]) => trigger)).toEqual(['803.00']);
    await venue.price(80_250);
    await venue.price(80_250);
    const fills = events.filter((e) => e.type === 'OrderFilled').map((e) => e.intentId);
    expect(fills).toEqual(['b1', 'b1/sl']);
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(engine.brackets.size).toBe(0);
    await engine.stop();
  });

  it('moves by at least a tenth of the trailing distance, not on every tick', async () => {
    const venue = paperBracketVenue();
    const { engine } = venue.engine();
    engine.start();
    await engine.submit(bracketIntent('b1', { trailing: { points: 400 } }));
    await venue.price(80_000);
    // Up 0.10 at a time, 1.00 in all: a stop trailing 4.00 moves by 0.40 at least.
    for (let mid = 80_010; mid <= 80_100; mid += 10) await venue.price(mid);
    const stop = engine.orders('s1').find((o) => o.intentId === 'b1/sl');
    expect(stop?.modifications).toBe(2);
    // Two moves, not nine; the stop lags its ideal place (797.00) by less than the step.
    expect((await workingStops(venue.broker)).map(([, trigger]) => trigger)).toEqual(['796.90']);
    await engine.stop();
  });

  it('past the modification limit cancels the stop and places it anew, one stop working at a time', async () => {
    const venue = paperBracketVenue();
    const { engine, events } = venue.engine({ maxModifications: 3 });
    engine.start();
    await engine.submit(bracketIntent('b1', { trailing: { points: 300 } }));
    await venue.price(80_000);
    const triggers: string[] = [];
    for (let mid = 80_400; mid <= 81_200; mid += 100) {
      await venue.price(mid);
      const stops = await workingStops(venue.broker);
      expect(stops).toHaveLength(1);
      triggers.push(stops[0]?.[1] ?? '');
    }
    expect(triggers).toEqual([
      '801.00',
      '802.00',
      '803.00',
      '804.00',
      '805.00',
      '806.00',
      '807.00',
      '808.00',
      '809.00',
    ]);
    const stops = events
      .filter((e) => e.type === 'OrderSubmitted' && e.intentId.endsWith('/sl'))
      .map((e) => e.intentId);
    // Moves 1–3 modify the first order, the 4th cancels it and the manager places the
    // stop anew under its next id, 5–7 modify the second, the 8th replaces it, the 9th
    // modifies the third: three orders, two cancelled by the manager itself.
    expect(stops).toEqual(['b1/sl', 'b1#2/sl', 'b1#3/sl']);
    const cancelled = events.filter((e) => e.type === 'OrderCancelled').map((e) => e.intentId);
    expect(cancelled).toEqual(['b1/sl', 'b1#2/sl']);
    // The bracket is still live: the replaced stops' cancels did not end it.
    expect(engine.brackets.size).toBe(1);
    await engine.stop();
  });
});

describe('BracketManager: partial fills', () => {
  it('grows the legs with each entry fill, and a partial exit shrinks the other leg', async () => {
    // 100 a side at each quote: a buy of 250 fills 100, 100, then 50.
    const venue = paperBracketVenue({ depth: 100 });
    const { engine, events } = venue.engine();
    engine.start();
    await engine.submit(
      bracketIntent('b1', {
        quantity: 250,
        entry: { orderType: 'LMT', price: 80_005 },
        target: { points: 800 },
      }),
    );
    const legQuantities = () =>
      engine
        .orders('s1')
        .filter((o) => o.intentId !== 'b1' && o.status !== 'cancelled')
        .map((o) => [o.intentId, o.request.quantity] as const);
    // The first 100 filled at once, against the quote the order met.
    await venue.wait();
    expect(legQuantities()).toEqual([
      ['b1/sl', '100'],
      ['b1/tp', '100'],
    ]);
    await venue.price(80_000);
    expect(legQuantities()).toEqual([
      ['b1/sl', '200'],
      ['b1/tp', '200'],
    ]);
    await venue.price(80_000);
    expect(legQuantities()).toEqual([
      ['b1/sl', '250'],
      ['b1/tp', '250'],
    ]);
    // The target fills 100 of 250: the stop shrinks to the 150 left.
    await venue.price(80_900);
    await venue.price(80_900);
    const partial = events.find((e) => e.type === 'OrderPartiallyFilled' && e.intentId === 'b1/tp');
    expect(partial).toBeDefined();
    expect(legQuantities().find(([id]) => id === 'b1/sl')?.[1]).toBe(
      String(250 - (engine.orders('s1').find((o) => o.intentId === 'b1/tp')?.filledQuantity ?? 0)),
    );
    await engine.stop();
  });
});
