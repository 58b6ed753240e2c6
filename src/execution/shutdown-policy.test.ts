import { describe, expect, it } from 'vitest';
import type { OrderType, TransactionType } from '../domain/order-params.ts';
import { classifyWorkingOrders, ordersToCancel } from './shutdown-policy.ts';
import { type TrackedOrder, trackedOrder } from './tracked-order.ts';

/** A working order of strategy `s1` on NIFTY CE (token 1). */
function working(
  intentId: string,
  side: TransactionType,
  quantity: number,
  extra: { orderType?: OrderType; filled?: number; placedAt?: number; token?: number } = {},
): TrackedOrder {
  return {
    ...trackedOrder({
      strategyId: 's1',
      intentId,
      tag: `s1-${intentId}`,
      intent: {
        kind: 'place',
        id: intentId,
        instrument: { exchange: 'NFO', token: extra.token ?? 1, symbol: 'NIFTY-CE' },
        side,
        quantity,
        orderType: extra.orderType ?? 'LMT',
        product: 'I',
      },
      request: {} as TrackedOrder['request'],
      orderId: `o-${intentId}`,
      status: 'open',
      placedAt: extra.placedAt ?? 0,
    }),
    filledQuantity: extra.filled ?? 0,
    acceptedSeen: true,
    openedSeen: true,
  };
}

const roles = (orders: TrackedOrder[], net: number) =>
  Object.fromEntries(
    [...classifyWorkingOrders(orders, () => net)].map(([o, role]) => [o.intentId, role]),
  );

describe('classifyWorkingOrders', () => {
  it("keeps a short straddle leg's cover stop and cancels a fresh sell on the same leg", () => {
    // Checked to fail: with every order counted an entry (the old cancelAll), `p1/stop`
    // comes out 'entry' and this assertion breaks.
    const orders = [working('p1/stop', 'B', 50, { orderType: 'SL-MKT' }), working('p3', 'S', 50)];
    expect(roles(orders, -50)).toEqual({ 'p1/stop': 'protective', p3: 'entry' });
  });

  it('counts everything as an entry while flat', () => {
    expect(roles([working('a', 'B', 10), working('b', 'S', 10)], 0)).toEqual({
      a: 'entry',
      b: 'entry',
    });
  });

  it('keeps stops before targets, and never more than the position can absorb', () => {
    const orders = [
      working('target', 'S', 10, { placedAt: 1 }),
      working('stop', 'S', 10, { orderType: 'SL-LMT', placedAt: 2 }),
      working('more', 'B', 5),
    ];
    // Long 10: the stop takes all the room; the target would go through zero.
    expect(roles(orders, 10)).toEqual({ stop: 'protective', target: 'entry', more: 'entry' });
    // Long 20: both exits fit.
    expect(roles(orders, 20)).toEqual({ stop: 'protective', target: 'protective', more: 'entry' });
  });

  it('keeps a stop larger than the position: never naked (entry sold 75, 50 filled, SL-MKT buys 75)', () => {
    // Checked to fail: with the old rule (a stop is protective only while its remainder
    // fits in |P|), the SL-MKT buying 75 against a short of 50 came out 'entry' and was
    // cancelled with the entry, leaving the short naked.
    const orders = [
      working('sell', 'S', 75, { filled: 50 }),
      working('sl', 'B', 75, { orderType: 'SL-MKT', placedAt: 1 }),
      working('leg/stop', 'B', 60, { orderType: 'SL-LMT', token: 2 }),
    ];
    const net = (_: string, token: number) => (token === 1 ? -50 : -40);
    const found = Object.fromEntries(
      [...classifyWorkingOrders(orders, net)].map(([o, r]) => [o.intentId, r]),
    );
    expect(found).toEqual({ sell: 'entry', sl: 'protective', 'leg/stop': 'protective' });
    expect(ordersToCancel('cancel-entries', orders, net).map((o) => o.intentId)).toEqual(['sell']);
  });

  it('gives non-stop exits only the room the stops leave: no exit through zero', () => {
    const orders = [
      working('target', 'S', 10, { placedAt: 1 }),
      working('stop', 'S', 15, { orderType: 'SL-MKT', placedAt: 2 }),
    ];
    // Long 10: the over-sized stop stays, the target would add to it through zero.
    expect(roles(orders, 10)).toEqual({ stop: 'protective', target: 'entry' });
    // Long 25: both fit.
    expect(roles(orders, 25)).toEqual({ stop: 'protective', target: 'protective' });
    // Flat: a stop opens risk; it is an entry.
    expect(roles(orders, 0)).toEqual({ stop: 'entry', target: 'entry' });
  });

  it('counts fills so far: a partly filled exit is protective for its remainder', () => {
    const exit = working('exit', 'S', 10, { filled: 6 });
    expect(roles([exit], 4)).toEqual({ exit: 'protective' });
    // An exit larger than the position flips it through zero: an entry.
    expect(roles([working('flip', 'S', 10)], 4)).toEqual({ flip: 'entry' });
  });

  it('looks at each instrument on its own', () => {
    const orders = [
      working('ce-stop', 'B', 50, { orderType: 'SL-MKT' }),
      working('pe', 'S', 50, { token: 2 }),
    ];
    const net = (_: string, token: number) => (token === 1 ? -50 : 0);
    const found = Object.fromEntries(
      [...classifyWorkingOrders(orders, net)].map(([o, r]) => [o.intentId, r]),
    );
    expect(found).toEqual({ 'ce-stop': 'protective', pe: 'entry' });
  });
});

describe('classifyWorkingOrders when the books lag or cannot be read', () => {
  /** A short cover sell of 50 the order book shows COMPLETE; the trade book has no fill yet. */
  const lagging = () => {
    const parent = working('p3', 'S', 50, { placedAt: 1 });
    parent.variety = 'cover';
    parent.bookFilledQuantity = 50;
    const leg = working('p3/stop', 'B', 50, { orderType: 'SL-MKT', placedAt: 2 });
    leg.variety = 'cover';
    leg.system = true;
    return { parent, leg };
  };

  it("keeps a cover order's stop leg when the order book shows the parent filled before the trade book does", () => {
    // Checked to fail: before the fix the position came from the trade book only (0),
    // so `p3/stop` was an entry and `ordersToCancel` returned it (a naked short).
    const { parent, leg } = lagging();
    const fresh = working('p4', 'B', 10, { placedAt: 3 });
    const cancel = ordersToCancel('cancel-entries', [parent, leg, fresh], () => 0);
    // The parent has nothing left to cancel; only the fresh buy is an entry.
    expect(cancel.map((o) => o.intentId)).toEqual(['p4']);
    expect(roles([parent, leg, fresh], 0)['p3/stop']).toBe('protective');
  });

  it('keeps a stop leg whose parent filled even when the parent is no longer working', () => {
    // Checked to fail: without `parentFilled`, a flat position makes the leg an entry.
    const { leg } = lagging();
    const found = classifyWorkingOrders([leg], () => 0, { parentFilled: () => 50 });
    expect(found.get(leg)).toBe('protective');
    expect(classifyWorkingOrders([leg], () => 0, { parentFilled: () => 0 }).get(leg)).toBe('entry');
  });

  it('counts fills the order book shows beyond the trade book in the position', () => {
    // Checked to fail: by the trade book alone (short 20) the exit of 40 goes through zero.
    // Sold 50 by the order book, 20 booked: short 50, so an exit of 40 fits.
    const sold = working('sell', 'S', 50, { filled: 20 });
    sold.bookFilledQuantity = 50;
    const exit = working('exit', 'B', 40, { placedAt: 5 });
    expect(roles([sold, exit], -20)).toMatchObject({ exit: 'protective' });
    expect(ordersToCancel('flatten', [sold, exit], () => -20).map((o) => o.intentId)).toEqual([
      'exit',
    ]);
  });

  it('keeps every stop when no read of the books succeeded (keepStops)', () => {
    // Checked to fail: without `keepStops`, a stop while (seemingly) flat is an entry.
    const stop = working('sl', 'B', 50, { orderType: 'SL-MKT' });
    const lmt = working('lmt', 'B', 50);
    const found = classifyWorkingOrders([stop, lmt], () => 0, { keepStops: true });
    expect([found.get(stop), found.get(lmt)]).toEqual(['protective', 'entry']);
  });
});

describe('ordersToCancel', () => {
  const orders = [working('p1/stop', 'B', 50, { orderType: 'SL-MKT' }), working('p3', 'S', 50)];
  it('cancels entries only by default, everything to flatten, nothing to leave', () => {
    const ids = (policy: Parameters<typeof ordersToCancel>[0]) =>
      ordersToCancel(policy, orders, () => -50).map((o) => o.intentId);
    expect(ids('cancel-entries')).toEqual(['p3']);
    expect(ids('flatten')).toEqual(['p1/stop', 'p3']);
    expect(ids('leave')).toEqual([]);
  });
});
