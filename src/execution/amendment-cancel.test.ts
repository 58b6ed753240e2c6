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
