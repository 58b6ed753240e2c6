import type { Paise } from '../../domain/money.ts';
import type { OrderType, TransactionType } from '../../domain/order-params.ts';

/**
 * The price path between two synthesised quotes of a candle replay: a straight move from
 * `from` to `to`, or a jump (`gap`: from a bar's close to the next bar's open, which
 * nothing traded in between).
 */
export interface PriceSegment {
  readonly from: Paise;
  readonly to: Paise;
  readonly gap: boolean;
}

/** What a resting order did on a segment: whether its stop triggered, and its fill price. */
export interface BarTouch {
  readonly triggered: boolean;
  /** The whole remaining quantity fills at this price; undefined: it keeps resting. */
  readonly price: Paise | undefined;
}

/** The terms of an order the bar fill model reads. */
export interface BarOrderTerms {
  readonly transactionType: TransactionType;
  readonly order: OrderType;
  /** Limit price (LMT, SL-LMT). */
  readonly price: Paise;
  /** Stop trigger (SL-MKT, SL-LMT). */
  readonly triggerPrice: Paise;
}

/**
 * Where a price level is reached on a segment, for a move `down` to it (a buy limit, a
 * sell stop) or up to it: at the level itself when the path runs through it (the path is
 * continuous inside a bar), at the segment's end when it jumped past it (a gap at a bar's
 * open fills at the open, no better and no worse), else nowhere.
 */
function reach(level: Paise, down: boolean, seg: PriceSegment): Paise | undefined {
  const past = (p: Paise): boolean => (down ? p <= level : p >= level);
  if (seg.gap) return past(seg.to) ? seg.to : undefined;
  return past(seg.from) || past(seg.to) ? level : undefined;
}

/**
 * The bar fill model of a candle replay (docs/backtests.md, "Replay from candles"), for an
 * order that rested through `seg`:
 *
 * - a limit order fills at its limit when the path touches it, at the open when a bar
 *   opens past it;
 * - a stop triggers at its trigger when the path touches it (at the open past it, on a
 *   gap); a stop-market then fills there, a stop-limit there if within its limit, else it
 *   rests as a limit order;
 * - market orders are not the model's: they fill against the quote's one-level book (the
 *   next synthesised price, plus the configured slippage), as in a tick replay.
 *
 * The whole remaining quantity fills (the synthesised book is deep). Pure.
 *
 * @example
 * ```ts
 * barTouch({ transactionType: 'B', order: 'LMT', price: 100, triggerPrice: 0 }, false,
 *   { from: 105, to: 98, gap: false }); // { triggered: false, price: 100 }
 * ```
 */
export function barTouch(
  order: BarOrderTerms,
  triggered: boolean,
  seg: PriceSegment,
): BarTouch | undefined {
  const buy = order.transactionType === 'B';
  if (order.order === 'MKT') return undefined;
  if (order.order === 'LMT' || (order.order === 'SL-LMT' && triggered)) {
    return { triggered, price: reach(order.price, buy, seg) };
  }
  if (triggered) return undefined; // a triggered stop-market rests only on an empty book
  const at = reach(order.triggerPrice, !buy, seg);
  if (at === undefined) return { triggered: false, price: undefined };
  if (order.order === 'SL-MKT') return { triggered: true, price: at };
  const within = buy ? at <= order.price : at >= order.price;
  return { triggered: true, price: within ? at : undefined };
}
