import type { FillDay } from './intraday-fill.ts';
import type { JournalFill, JournalSnapshot } from './journal.ts';
import type { PositionBook } from './position-book.ts';
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

/**
 * Books a journal's fills into `book` in their order, each on its day (its order's, found
 * by tag; a fill whose order the journal lacks counts as a carried product's), as a
 * replay (see `PositionBook.replay`); `each` sees every fill after it is booked.
 *
 * @example
 * ```ts
 * bookJournalFills(positions, journal.load());
 * ```
 */
export function bookJournalFills(
  book: PositionBook,
  snapshot: Pick<JournalSnapshot, 'orders' | 'fills'>,
  each?: (fill: JournalFill) => void,
): void {
  const orderOf = new Map(snapshot.orders.map((o) => [o.tag, o]));
  book.replay(() => {
    for (const f of snapshot.fills) {
      const order = orderOf.get(f.tag);
      const day = order === undefined ? undefined : fillDay(order, f.at);
      book.applyFill(f.strategyId, f.token, f.symbol, f.side, f.quantity, f.price, day);
      each?.(f);
    }
  });
}
