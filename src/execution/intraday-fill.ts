import { istDayStartOf, istParts } from '../domain/ist.ts';
import type { Paise } from '../domain/money.ts';
import type { Product } from '../domain/order-params.ts';

/** What places a fill on its day, for the position book's intraday part. */
export interface FillDay {
  /** The order's product: only `I` fills have a day. */
  product: Product;
  /** The time the fill belongs to (epoch ms): see `fillDayTime`. */
  at: number;
  /** When the bot learnt of the fill (epoch ms): the fill event's time. */
  learntAt: number;
}

/** An intraday position the book closed because its IST day ended. */
export interface IntradayClosed {
  strategyId: string;
  token: number;
  symbol: string;
  /** Signed quantity that was still open (positive long). */
  quantity: number;
  /**
   * The price it was booked closed at: its cost (the average price), so the close books
   * no PnL (what the broker's square-off made is not known to the bot); the last fill's
   * price for a part that ran against a carried position.
   */
  price: Paise;
  /** The IST day the position was opened on, `YYYY-MM-DD`. */
  day: string;
  /**
   * Closed while a journal's fills were replayed (`PositionBook.replay`): a later day's
   * fill in the journal shows the bot ran after that day and closed it then.
   */
  replayed: boolean;
}

/**
 * An intraday fill the book did not book: the bot learnt of it on a day after its order's
 * day, whose position had been closed by then (`quantity` is the fill's, signed).
 */
export type LateIntradayFill = IntradayClosed;

/** `YYYY-MM-DD` of an IST day number. */
export function dayText(day: number): string {
  const p = istParts(istDayStartOf(day));
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}
