import type { FillDay } from './intraday-fill.ts';
import type { TrackedOrder } from './tracked-order.ts';

/**
 * The time an intraday fill belongs to, for the position book's days: its order's
 * placement (a day order fills on the day it was placed, however late the bot learns of
 * it), or, for an after-market order, when the bot learnt of the fill (it fills in the
 * next session).
 *
 * @example
 * ```ts
 * fillDayTime(order, event.at); // order.placedAt, or event.at for an AMO
 * ```
 */
export function fillDayTime(
  order: Pick<TrackedOrder, 'placedAt' | 'request'>,
  learntAt: number,
): number {
  return order.request.amo === true ? learntAt : order.placedAt;
}

/**
 * What the position book needs to place a fill of `order`, learnt at `learntAt`, on its
 * day (see `PositionBook.applyFill`).
 *
 * @example
 * ```ts
 * book.applyFill(id, token, symbol, side, qty, price, fillDay(order, event.at));
 * ```
 */
export function fillDay(
  order: Pick<TrackedOrder, 'placedAt' | 'request' | 'intent'>,
  learntAt: number,
): FillDay {
  return { product: order.intent.product, at: fillDayTime(order, learntAt), learntAt };
}
