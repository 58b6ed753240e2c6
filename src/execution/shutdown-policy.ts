import type { TrackedOrder } from './tracked-order.ts';

/** The key of a strategy's orders and position in one instrument. */
export const groupKey = (strategyId: string, token: number): string =>
  `${strategyId}\u0000${token}`;

/**
 * What a stop (SIGINT/SIGTERM) does at the broker, from `execution.onShutdown`:
 * - `cancel-entries` (default): cancel working entry orders; keep positions and the
 *   orders that protect them;
 * - `flatten`: cancel every working order and square off every position at market
 *   (stop orders only once a read of the books has succeeded);
 * - `leave`: touch nothing.
 */
export type ShutdownPolicy = 'cancel-entries' | 'flatten' | 'leave';

/** Whether a working order would open risk (`entry`) or only take it off (`protective`). */
export type OrderRole = 'entry' | 'protective';

/** A cover order's stop leg, as the tracker adopts it from the order book. */
function isCoverStopLeg(order: TrackedOrder): boolean {
  return order.system === true && order.intentId.endsWith('/stop');
}

/** A cover order's stop leg, or any stop-loss order (`SL-MKT`, `SL-LMT`): protective first. */
export function isStop(order: TrackedOrder): boolean {
  return (
    isCoverStopLeg(order) ||
    order.intentId.endsWith('/stop') ||
    order.intent.orderType === 'SL-MKT' ||
    order.intent.orderType === 'SL-LMT'
  );
}

/** Filled quantity by either book: the order book may be ahead of the trade book. */
const filledOf = (order: TrackedOrder): number =>
  Math.max(order.filledQuantity, order.bookFilledQuantity ?? 0);

/** What is still unfilled by either book; an order with nothing left needs no cancel. */
const remainderOf = (order: TrackedOrder): number => Math.max(0, order.quantity - filledOf(order));

/** Signed quantity the order book shows filled that the trade book has not shown yet. */
const unbookedOf = (order: TrackedOrder): number =>
  (order.intent.side === 'B' ? 1 : -1) * Math.max(0, filledOf(order) - order.filledQuantity);

/** What else {@link classifyWorkingOrders} may be told. */
export interface ClassifyOptions {
  /**
   * Quantity the parent of a cover stop leg has filled by either book. Default: looked up
   * among the orders given (a parent whose fills are not all booked is still working).
   */
  parentFilled?: (leg: TrackedOrder) => number;
  /**
   * No read of the books succeeded during the stop: the position is not known, so every
   * stop order is kept (which side reduces it cannot be told for sure).
   */
  keepStops?: boolean;
}

/**
 * Sorts working orders into entries and protective orders.
 *
 * Per strategy and instrument, with `P` the net position — the fills the trade book has
 * shown, plus, per order, what the order book shows filled beyond them (the trade book
 * may lag; each order counts the larger of the two):
 * - a cover order's stop leg whose parent has filled (by either book) is protective,
 *   whatever `P` says: a stale or lagging book read must not strip a filled cover order
 *   of its stop;
 * - while `P` is not zero, every stop order on the side that reduces `P` (a cover
 *   order's stop leg, `SL-MKT`, `SL-LMT`) is protective, whatever its size: a trader
 *   would rather keep an over-sized stop than be left naked;
 * - the other orders on the reducing side are then taken by placement time, and each is
 *   protective while its unfilled remainder, with those of the stops and of the exits
 *   taken before it, adds up to at most `|P|`;
 * - with `keepStops` (no book read succeeded), every stop order is protective.
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
  netPosition: (strategyId: string, token: number) => number,
  options: ClassifyOptions = {},
): Map<TrackedOrder, OrderRole> {
  const parentFilled =
    options.parentFilled ??
    ((leg: TrackedOrder): number => {
      const parentId = leg.intentId.slice(0, -'/stop'.length);
      const parent = orders.find(
        (o) => o.strategyId === leg.strategyId && o.intentId === parentId && o !== leg,
      );
      return parent === undefined ? 0 : filledOf(parent);
    });
  const groups = new Map<string, TrackedOrder[]>();
  for (const o of orders) {
    const key = groupKey(o.strategyId, o.intent.instrument.token);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [o]);
    else group.push(o);
  }
  const roles = new Map<TrackedOrder, OrderRole>();
  for (const group of groups.values()) {
    const first = group[0] as TrackedOrder;
    const net =
      netPosition(first.strategyId, first.intent.instrument.token) +
      group.reduce((sum, o) => sum + unbookedOf(o), 0);
    for (const o of group) {
      const coveredLeg = isCoverStopLeg(o) && parentFilled(o) > 0;
      if (coveredLeg || (options.keepStops === true && isStop(o))) roles.set(o, 'protective');
    }
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

/**
 * The orders a policy cancels, out of the working ones. With `keepStops` (no read of
 * the books succeeded) no stop order is cancelled, under `flatten` too.
 */
export function ordersToCancel(
  policy: ShutdownPolicy,
  orders: readonly TrackedOrder[],
  netPosition: (strategyId: string, token: number) => number,
  options: ClassifyOptions = {},
): TrackedOrder[] {
  if (policy === 'leave') return [];
  // An order the order book shows fully filled has nothing left to cancel.
  const working = orders.filter((o) => remainderOf(o) > 0);
  // Without a successful read the position is not known, and a stop cancelled then
  // (unconfirmed, the book unreadable) would leave it with neither stop nor exit: a
  // `flatten` squares off only once it can see, so until then it keeps every stop too.
  if (policy === 'flatten')
    return options.keepStops === true ? working.filter((o) => !isStop(o)) : working;
  const roles = classifyWorkingOrders(orders, netPosition, options);
  return working.filter((o) => roles.get(o) === 'entry');
}
