import type { TrackedOrder } from './tracked-order.ts';

/**
 * What a stop (SIGINT/SIGTERM) does at the broker, from `execution.onShutdown`:
 * - `cancel-entries` (default): cancel working entry orders; keep positions and the
 *   orders that protect them;
 * - `flatten`: cancel every working order and square off every position at market;
 * - `leave`: touch nothing.
 */
export type ShutdownPolicy = 'cancel-entries' | 'flatten' | 'leave';

/** Whether a working order would open risk (`entry`) or only take it off (`protective`). */
export type OrderRole = 'entry' | 'protective';

/** A cover order's stop leg, or any stop-loss order: protective first. */
function isStop(order: TrackedOrder): boolean {
  return (
    order.intentId.endsWith('/stop') ||
    order.intent.orderType === 'SL-MKT' ||
    order.intent.orderType === 'SL-LMT'
  );
}

const remainderOf = (order: TrackedOrder): number =>
  Math.max(0, order.quantity - order.filledQuantity);

/**
 * Sorts working orders into entries and protective orders.
 *
 * Per strategy and instrument, with `P` the net position from the fills booked so far:
 * - while `P` is not zero, every stop order on the side that reduces `P` (a cover
 *   order's stop leg, `SL-MKT`, `SL-LMT`) is protective, whatever its size: a trader
 *   would rather keep an over-sized stop than be left naked;
 * - the other orders on the reducing side are then taken by placement time, and each is
 *   protective while its unfilled remainder, with those of the stops and of the exits
 *   taken before it, adds up to at most `|P|`.
 *
 * Everything else is an entry: an order on the side of `P`, any order while flat, and
 * a non-stop exit that would take the position through zero (with the orders ahead of
 * it). Removing the entries therefore never removes a stop that covers a position.
 *
 * @example
 * ```ts
 * // Short 50 with its cover stop (buy 50) and a fresh sell limit working:
 * classifyWorkingOrders(orders, () => -50); // stop → protective, sell limit → entry
 * ```
 */
export function classifyWorkingOrders(
  orders: readonly TrackedOrder[],
  netPosition: (strategyId: string, token: string) => number,
): Map<TrackedOrder, OrderRole> {
  const groups = new Map<string, TrackedOrder[]>();
  for (const o of orders) {
    const key = `${o.strategyId}\u0000${o.intent.instrument.token}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [o]);
    else group.push(o);
  }
  const roles = new Map<TrackedOrder, OrderRole>();
  for (const group of groups.values()) {
    const first = group[0] as TrackedOrder;
    const net = netPosition(first.strategyId, first.intent.instrument.token);
    const reducing = net > 0 ? 'S' : net < 0 ? 'B' : undefined;
    const onReducingSide = group.filter((o) => o.intent.side === reducing);
    let room = Math.abs(net);
    for (const o of onReducingSide.filter(isStop)) {
      roles.set(o, 'protective');
      room -= remainderOf(o);
    }
    const exits = onReducingSide.filter((o) => !isStop(o)).sort((a, b) => a.placedAt - b.placedAt);
    for (const o of exits) {
      const remainder = remainderOf(o);
      if (remainder <= room) {
        roles.set(o, 'protective');
        room -= remainder;
      }
    }
    for (const o of group) if (!roles.has(o)) roles.set(o, 'entry');
  }
  return roles;
}

/** The orders a policy cancels, out of the working ones. */
export function ordersToCancel(
  policy: ShutdownPolicy,
  orders: readonly TrackedOrder[],
  netPosition: (strategyId: string, token: string) => number,
): TrackedOrder[] {
  if (policy === 'leave') return [];
  if (policy === 'flatten') return [...orders];
  const roles = classifyWorkingOrders(orders, netPosition);
  return orders.filter((o) => roles.get(o) === 'entry');
}
