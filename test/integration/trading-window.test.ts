import { describe, expect, it } from 'vitest';
import type { OrderEvent } from '../../src/domain/order-events.ts';
import { paperStateVenue, place, SIM_CALENDAR } from '../helpers/paper-state-venue.ts';

const at = (time: string) => Date.parse(`2026-11-20T${time}+05:30`);
describe('the trading window on the engine (paper venue, virtual time)', () => {
  it("denies a re-buy in the same instant as the framework's square-off; exits pass", async () => {
    // The RSI case. How this was checked: without the window check in placement, the
    // re-buy is not denied and this fails.
    const venue = paperStateVenue(at('15:15:00'), { sessions: SIM_CALENDAR });
    const engine = venue.engine({ squareOffMinutesBeforeClose: 10 });
    const events: OrderEvent[] = [];
    engine.events$.subscribe((e) => events.push(e));
    engine.start();
    await engine.submit(place('e1'));
    await venue.wait(2_000);
    expect(engine.positions.position('s1', 3045)?.netQuantity).toBe(10);

    venue.clock.advanceTo(at('15:20:00'));
    // The same instant: the framework squares off, the strategy buys again.
    await Promise.all([
      engine.submit({ kind: 'squareOff', id: 'auto-eod-1', strategyId: 's1', reason: 'eod' }),
      engine.submit(place('again')),
    ]);
    await venue.wait(2_000);
    const denied = events.find((e) => e.type === 'OrderDenied' && e.intentId === 'again');
    expect(denied).toMatchObject({
      reason:
        'intraday entry after the square-off time (15:20 IST, 10 min before the close): only exits pass',
    });
    expect(engine.positions.position('s1', 3045)?.netQuantity).toBe(0);

    // A delivery order is outside the window, and so is its delivery exit. An intraday
    // sell against the holding is not its exit: the broker keeps products apart, so it
    // opens an intraday short (checked to fail with the window reading the net position,
    // as before: the short passed as an exit).
    await engine.submit(place('delivery', { product: 'C', quantity: 4 }));
    await venue.wait(2_000);
    await engine.submit(place('short', { product: 'I', side: 'S', quantity: 4 }));
    await venue.wait(2_000);
    await engine.submit(place('exit', { product: 'C', side: 'S', quantity: 4 }));
    await venue.wait(2_000);
    expect(events.filter((e) => e.type === 'OrderDenied').map((e) => e.intentId)).toEqual([
      'again',
      'short',
    ]);
    expect(engine.positions.position('s1', 3045)?.netQuantity).toBe(0);
    await engine.stop();
  });

  it('lets entries through before the square-off time, and without a window', async () => {
    const venue = paperStateVenue(at('15:19:00'), { sessions: SIM_CALENDAR });
    const engine = venue.engine({ squareOffMinutesBeforeClose: 10 });
    engine.start();
    await engine.submit(place('early'));
    await venue.wait(2_000);
    expect(engine.positions.position('s1', 3045)?.netQuantity).toBe(10);
    await engine.stop();
    const late = paperStateVenue(at('15:25:00'), { sessions: SIM_CALENDAR });
    const unwindowed = late.engine();
    unwindowed.start();
    await unwindowed.submit(place('late'));
    await late.wait(2_000);
    expect(unwindowed.positions.position('s1', 3045)?.netQuantity).toBe(10);
    await unwindowed.stop();
  });
});
