import { describe, expect, it } from 'vitest';
import { bracketIntent, paperBracketVenue } from '../../paper/testing/paper-bracket-venue.ts';

const legs = (events: { type: string; intentId: string }[], type: string) =>
  events.filter((e) => e.type === type).map((e) => e.intentId);

describe('BracketManager over the paper venue: entry, then a one-cancels-other pair', () => {
  it('places the stop (SL-MKT) and the target (LMT) once the entry fills, from its average price', async () => {
    const venue = paperBracketVenue();
    const { engine, events } = venue.engine();
    engine.start();
    await engine.submit(bracketIntent('b1', { target: { points: 800 } }));
    await venue.price(80_000);
    const submitted = events.filter((e) => e.type === 'OrderSubmitted');
    expect(submitted.map((e) => e.intentId)).toEqual(['b1', 'b1/sl', 'b1/tp']);
    const fill = events.find((e) => e.type === 'OrderFilled');
    expect(fill).toMatchObject({ intentId: 'b1', averagePrice: 80_005 });
    const [, stop, target] = submitted.map((e) =>
      e.type === 'OrderSubmitted' ? e.intent : undefined,
    );
    // Bought at 800.05: stop 4.00 below (79_605, rounded away from the price to 79_605), target 8.00 above.
    expect(stop).toMatchObject({
      side: 'S',
      orderType: 'SL-MKT',
      triggerPrice: 79_605,
      quantity: 10,
    });
    expect(target).toMatchObject({ side: 'S', orderType: 'LMT', price: 80_805, quantity: 10 });
    await engine.stop();
  });

  it('cancels the stop when the target fills, and ends the bracket', async () => {
    const venue = paperBracketVenue();
    const { engine, events } = venue.engine();
    engine.start();
    await engine.submit(bracketIntent('b1', { target: { points: 800 } }));
    await venue.price(80_000);
    await venue.price(80_900);
    await venue.price(80_900);
    expect(legs(events, 'OrderFilled')).toEqual(['b1', 'b1/tp']);
    expect(legs(events, 'OrderCancelled')).toEqual(['b1/sl']);
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(engine.brackets.size).toBe(0);
    await engine.stop();
  });

  it('cancels the target when the stop fills', async () => {
    const venue = paperBracketVenue();
    const { engine, events } = venue.engine();
    engine.start();
    await engine.submit(bracketIntent('b1', { target: { points: 800 } }));
    await venue.price(80_000);
    await venue.price(79_500);
    await venue.price(79_500);
    expect(legs(events, 'OrderFilled')).toEqual(['b1', 'b1/sl']);
    expect(legs(events, 'OrderCancelled')).toEqual(['b1/tp']);
    expect(engine.positions.positions('s1')[0]?.netQuantity).toBe(0);
    expect(engine.brackets.size).toBe(0);
    await engine.stop();
  });
});
