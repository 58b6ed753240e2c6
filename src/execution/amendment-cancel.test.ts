import { describe, expect, it } from 'vitest';
import { bracketIntent, paperBracketVenue } from '../paper/testing/paper-bracket-venue.ts';
import { exposureOf } from './exposure.ts';

describe("a strategy's cancel", () => {
  it('marks the order as being cancelled: a leg it cancels gives way to the exit placed after it', async () => {
    const venue = paperBracketVenue();
    const { engine } = venue.engine();
    engine.start();
    await engine.submit(bracketIntent('b1', { target: { points: 800 } }));
    await venue.price(80_000);
    for (const target of ['b1/sl', 'b1/tp'])
      await engine.submit({ kind: 'cancel', strategyId: 's1', id: `x-${target}`, target });
    const legs = engine.orders('s1').filter((o) => o.intentId !== 'b1');
    expect(legs.map((o) => o.cancelRequested)).toEqual([true, true]);
    // Long 10, both legs on their way out: an exit of 10 now reduces (no longer seen as
    // going short 10 past the legs).
    const tracker = { active: () => engine.orders('s1') } as never;
    expect(exposureOf(engine.positions, tracker, 's1', 3045)).toEqual({ position: 10, pending: 0 });
    await engine.stop();
  });
});

describe('cancel-and-replace past the modification limit', () => {
  it("keeps the strategy's ownership of the re-placed order", async () => {
    const venue = paperBracketVenue();
    const { engine } = venue.engine({ maxModifications: 1 });
    engine.start();
    const instrument = bracketIntent('x').instrument;
    await engine.submit({
      kind: 'place',
      strategyId: 's1',
      id: 'bid',
      instrument,
      side: 'B',
      quantity: 10,
      orderType: 'LMT',
      price: 79_000,
      product: 'I',
    });
    await venue.wait();
    for (const [n, price] of [79_100, 79_200].entries()) {
      await engine.submit({ kind: 'modify', strategyId: 's1', id: `m${n}`, target: 'bid', price });
      await venue.wait();
    }
    const open = engine.openOrders('s1', 3045);
    expect(open.map((o) => [o.intentId, o.price, o.system])).toEqual([['bid', 79_200, false]]);
    await engine.stop();
  });
});
