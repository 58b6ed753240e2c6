import { describe, expect, it } from 'vitest';
import type { PlaceOrderRequest } from '../api/schemas/order-requests.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import type { Broker } from './broker.ts';
import { MemoryJournal } from './journal.ts';
import { engineOn, placeIntent, scriptedBroker } from './testing/engine-fixtures.ts';
import { type TrackedOrder, trackedOrder } from './tracked-order.ts';

/** A broker whose books are empty: every order is absent from them. */
const emptyBooks = (): Broker => scriptedBroker({ placements: 'refuse' }).broker;

describe('ExecutionEngine.recover of an attempt a stop counted as not placed', () => {
  it('on a later day marks it unresolved (absence on a later day proves nothing), not rejected', async () => {
    // How this was checked: with the notPlacedAtStop check ahead of the day check (the
    // earlier replaceAbsent), the order came out 'rejected' ("not placed: absent …")
    // and both assertions below failed.
    const stopAt = Date.parse('2026-11-20T15:00:00+05:30');
    const journal = new MemoryJournal();
    const order: TrackedOrder = {
      ...trackedOrder({
        strategyId: 's1',
        intentId: 'e1',
        tag: 's1-x-1',
        intent: placeIntent('e1'),
        request: { tags: 's1-x-1' } as PlaceOrderRequest,
        status: 'unknown',
        placedAt: stopAt - 20_000,
      }),
      unknownSince: stopAt - 20_000,
      notPlacedAtStop: stopAt,
    };
    journal.commit({ orders: [order], at: stopAt });

    const clock = new VirtualClock(Date.parse('2026-11-23T10:00:00+05:30'));
    const engine = engineOn(emptyBooks(), clock, journal);
    const events: OrderEvent[] = [];
    engine.events$.subscribe((e) => events.push(e));
    await engine.recover();
    await engine.poll();
    expect(engine.orders().map((o) => o.status)).toEqual(['unresolved']);
    const rejected = events.filter((e) => e.type === 'OrderRejected');
    expect(rejected.map((e) => ('reason' in e ? e.reason : ''))).toEqual([
      'unresolved: outcome never confirmed on its day; not re-placed',
    ]);
    await engine.stop();
  });
});
