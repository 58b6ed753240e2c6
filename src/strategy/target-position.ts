import type { OpenOrder } from '../domain/order-events.ts';
import type { TransactionType } from '../domain/order-params.ts';

/** What reaching a target needs: working orders to cancel, then orders to place. */
export interface TargetPlan {
  /** Intent ids of working orders that work away from the target (or beyond it). */
  cancel: string[];
  /** New orders, in order: an exit to flat first when the target reverses the position. */
  place: Array<{ side: TransactionType; quantity: number }>;
}

/** Signed quantity an order still adds: + for a buy, − for a sell. */
const remainingOf = (o: OpenOrder): number =>
  (o.side === 'B' ? 1 : -1) * Math.max(0, o.quantity - o.filledQuantity);

/**
 * Orders `target` leaves alone: stop orders (a bracket's or cover order's stop leg, a
 * strategy's own stop) are conditional protection, not quantity on its way.
 */
const isConditional = (o: OpenOrder): boolean =>
  o.orderType === 'SL-MKT' || o.orderType === 'SL-LMT';

/**
 * A managed bracket's stop or target leg (`<id>/sl`, `<id>#2/tp`; strategies may not
 * end their own ids so): the bracket sizes its legs to the position, so `target` neither
 * counts nor cancels them (cancelling one would end the bracket).
 */
const isBracketLeg = (o: OpenOrder): boolean => /\/(sl|tp)$/.test(o.intentId);

/**
 * What it takes to go from `net` (the position now) with `working` orders to a signed
 * `target`:
 * - the framework's own orders (square-off, kill switch) count as on their way and are
 *   never cancelled; stop orders (the framework's too) and a bracket's legs are left
 *   alone and not counted (the bracket resizes its legs to the position);
 * - the strategy's orders working towards the target count, oldest first, as long as
 *   they do not carry it past the target; the others (working away from it, or beyond
 *   it) are cancelled;
 * - what is still missing is placed: one order, or two when the position changes sign
 *   (an exit to flat, then the entry), so the exit is never refused with the entry
 *   (after the square-off time, or once the kill switch has tripped, only exits pass).
 *
 * Already at the target with nothing extra working: nothing to do.
 *
 * @example
 * ```ts
 * planTarget(0, [], 10); // { cancel: [], place: [{ side: 'B', quantity: 10 }] }
 * planTarget(10, [], -5); // exit 10, then sell 5: two orders
 * ```
 */
export function planTarget(net: number, working: readonly OpenOrder[], target: number): TargetPlan {
  let expected = net;
  for (const o of working) if (o.system && !isConditional(o)) expected += remainingOf(o);
  const cancel: string[] = [];
  for (const o of working) {
    if (o.system || isConditional(o) || isBracketLeg(o)) continue;
    const add = remainingOf(o);
    if (add === 0) continue;
    const gap = target - expected;
    // Towards the target, and not past it: it counts; otherwise it goes.
    if (Math.sign(add) === Math.sign(gap) && Math.abs(add) <= Math.abs(gap)) expected += add;
    else cancel.push(o.intentId);
  }
  const place: TargetPlan['place'] = [];
  const gap = target - expected;
  if (gap !== 0) {
    const side: TransactionType = gap > 0 ? 'B' : 'S';
    const crosses = expected !== 0 && target !== 0 && Math.sign(expected) !== Math.sign(target);
    if (crosses) {
      place.push({ side, quantity: Math.abs(expected) });
      place.push({ side, quantity: Math.abs(target) });
    } else place.push({ side, quantity: Math.abs(gap) });
  }
  return { cancel, place };
}
