import { describe, expect, it } from 'vitest';
import { bracketIntent, paperBracketVenue } from '../../paper/testing/paper-bracket-venue.ts';

describe('BracketManager: how a bracket ends', () => {
  it('a leg cancelled outside the bracket ends it and cancels the other leg', async () => {
    const venue = paperBracketVenue();
    const { engine, events } = venue.engine();
    engine.start();
    await engine.submit(bracketIntent('b1', { target: { points: 800 } }));
    await venue.price(80_000);
    await engine.submit({ kind: 'cancel', strategyId: 's1', id: 'mine', target: 'b1/sl' });
    await venue.wait();
    await venue.wait();
    expect(engine.brackets.size).toBe(0);
    const cancelled = events.filter((e) => e.type === 'OrderCancelled').map((e) => e.intentId);
    expect(cancelled.sort()).toEqual(['b1/sl', 'b1/tp']);
    await engine.stop();
  });

  it('a corrupt journal value of the live brackets does not stop the start', async () => {
    const venue = paperBracketVenue();
    venue.journal.setMeta('brackets', '[{"strategyId":');
    const { engine } = venue.engine();
    await engine.recover();
    engine.start();
    expect(engine.brackets.size).toBe(0);
    await engine.stop();
  });
});
