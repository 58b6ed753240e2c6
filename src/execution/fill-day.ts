import type { TrackedOrder } from './tracked-order.ts';

/**
 * The time an intraday fill belongs to, for the position book's days: its order's
 * placement (a day order fills on the day it was placed, however late the bot learns of
 * it), or, for an after-market order, when the bot learnt of the fill (it fills in the
 * next session).
 *
 * @example
 * ```ts
 * book.applyFill(id, token, symbol, side, qty, price, order.intent.product, fillDayTime(order, event.at));
 * ```
 */
export function fillDayTime(
  order: Pick<TrackedOrder, 'placedAt' | 'request'>,
  learntAt: number,
): number {
  return order.request.amo === true ? learntAt : order.placedAt;
}
