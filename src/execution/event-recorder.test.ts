import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import { EventRecorder } from './event-recorder.ts';
import { MemoryJournal } from './journal.ts';
import { PositionBook } from './position-book.ts';
import { placeIntent } from './testing/engine-fixtures.ts';
import { type TrackedOrder, trackedOrder } from './tracked-order.ts';
import { TrackedOrders } from './tracked-orders.ts';

describe('EventRecorder: which order row an event is written with', () => {
  it("writes a late fill of a cancelled-and-replaced order to that order's row, not its successor's", () => {
    // After a cancel-and-replace both orders carry the same intent id; the intent's latest
    // order is the new one. Checked to fail: looking the order up by intent (as before)
    // writes the old order's fill into the new order's row (new.fills = {F1}, filled 1).
    const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
    const journal = new MemoryJournal();
    const orders = new TrackedOrders();
    const intent = placeIntent('e1', { quantity: 2 });
    const make = (tag: string, orderId: string): TrackedOrder =>
      trackedOrder({
        strategyId: 's1',
        intentId: 'e1',
        tag,
        intent,
        request: {} as TrackedOrder['request'],
        placedAt: clock.now(),
        orderId,
        status: 'open',
      });
    const old = make('s1-e1-1', 'N1');
    const successor = make('s1-e1-2', 'N2');
    orders.track(old);
    orders.track(successor);
    let fillsSeen = 0;
    const recorder = new EventRecorder({
      clock,
      journal,
      orders,
      positions: new PositionBook(),
      afterFill: () => fillsSeen++,
    });
    const fill: OrderEvent = {
      type: 'OrderPartiallyFilled',
      strategyId: 's1',
      intentId: 'e1',
      tag: 's1-e1-1',
      orderId: 'N1',
      at: clock.now(),
      fillId: 'F1',
      fillQuantity: 1,
      fillPrice: 80_000,
      filledQuantity: 1,
      averagePrice: 80_000,
      quantity: 2,
    };
    recorder.emit(fill);

    const rows = new Map(journal.load().orders.map((o) => [o.tag, o]));
    expect([...(rows.get('s1-e1-1')?.fills ?? [])]).toEqual(['F1']);
    expect(rows.get('s1-e1-1')?.filledQuantity).toBe(1);
    expect(rows.has('s1-e1-2')).toBe(false);
    expect(fillsSeen).toBe(1);
  });
});
