import { describe, expect, it } from 'vitest';
import { type TrackedOrder, trackedOrder } from './tracked-order.ts';
import { TrackedOrders } from './tracked-orders.ts';

let seq = 0;
/** A working order of strategy `s` in instrument `token`. */
function order(s: string, token: number): TrackedOrder {
  seq += 1;
  return trackedOrder({
    strategyId: s,
    intentId: `i${seq}`,
    tag: `${s}-t${seq}`,
    intent: {
      kind: 'place',
      id: `i${seq}`,
      instrument: { exchange: 'NSE', token, symbol: `T${token}` },
      side: 'B',
      quantity: 1,
      orderType: 'MKT',
      product: 'I',
    },
    request: {} as TrackedOrder['request'],
    status: 'pending',
    placedAt: 0,
  });
}

describe('TrackedOrders: working orders by strategy and instrument (issue 13: placement cost)', () => {
  it('answers one strategy-instrument pair, the open count and membership, as active() does', () => {
    const orders = new TrackedOrders();
    const mine = [order('a', 1), order('a', 1)];
    const others = [order('a', 2), order('b', 1), order('b', 2)];
    for (const o of [...mine, ...others]) orders.track(o);
    expect(orders.workingFor('a', 1)).toEqual(mine);
    expect(orders.workingFor('c', 1)).toEqual([]);
    expect(orders.openCount()).toBe(5);
    // Final orders drop out of every view, as they do from active().
    // Checked to fail: without the isFinal test in workingFor, the filled order stayed.
    (mine[0] as TrackedOrder).status = 'complete';
    (others[1] as TrackedOrder).status = 'cancelled';
    expect(orders.workingFor('a', 1)).toEqual([mine[1]]);
    expect(orders.openCount()).toBe(orders.active().length);
    expect(orders.openCount()).toBe(3);
    expect(orders.isWorking(mine[1] as TrackedOrder)).toBe(true);
    expect(orders.isWorking(mine[0] as TrackedOrder)).toBe(false);
    expect(orders.isWorking(order('a', 1))).toBe(false);
  });

  it('keeps a re-placed order under its new tag in its pair once', () => {
    const orders = new TrackedOrders();
    const o = order('a', 1);
    orders.track(o);
    const old = o.tag;
    o.tag = `${old}-2`;
    orders.rekey(old, o);
    expect(orders.workingFor('a', 1)).toEqual([o]);
    expect(orders.openCount()).toBe(1);
  });
});
