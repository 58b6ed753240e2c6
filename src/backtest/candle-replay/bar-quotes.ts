import type { FullQuote } from '../../api/schemas/quote.ts';
import type { Candle } from '../../domain/candle.ts';
import { istDayNumber } from '../../domain/ist.ts';

/**
 * Where inside a bar its four synthesised quotes are, as shares of the bar's length
 * (`end - start`, the session's close capping the last bar): open at the start, then the
 * first extreme, the second extreme, and the close at three quarters.
 */
const BAR_POINT_OFFSETS = [0, 0.25, 0.5, 0.75] as const;

/**
 * Quantity at each level of a synthesised quote's book: deep enough that no backtest
 * order moves the price (candles say nothing about depth).
 */
const BAR_BOOK_DEPTH = 1_000_000_000;

/** One synthesised quote and the instant it is published at. */
export interface BarQuote {
  readonly at: number;
  readonly quote: FullQuote;
}

/**
 * The price path inside a bar: up bars (close ≥ open) open → low → high → close, down
 * bars open → high → low → close (the usual assumption that the extreme nearer the open
 * came first is unknowable from a candle; this one is the common, documented choice).
 */
function barPath(bar: Pick<Candle, 'open' | 'high' | 'low' | 'close'>): number[] {
  return bar.close >= bar.open
    ? [bar.open, bar.low, bar.high, bar.close]
    : [bar.open, bar.high, bar.low, bar.close];
}

/**
 * Turns one token's bars, in time order, into the quotes a bus would have polled from a
 * market moving along {@link barPath}: `full` quotes with the day's open, high, low so
 * far, the previous day's close, the day's cumulative volume (the open carries none of
 * the bar's volume, the close all of it, so a candle built from the quotes has the bar's
 * volume exactly), the bar's open interest, and a one-level book at the price on both
 * sides, {@link BAR_BOOK_DEPTH} deep. `ltt` is the bar's start (seconds) in all four,
 * `time` the quote's own instant: a change of `ltt` is the jump between two bars.
 *
 * @example
 * ```ts
 * const q = new BarQuotes(3045);
 * q.quotes(bar, bar.end).map((p) => p.quote.ltp); // [open, low, high, close] for an up bar
 * ```
 */
export class BarQuotes {
  private day = Number.NaN;
  private dayOpen = 0;
  private dayHigh = 0;
  private dayLow = 0;
  private dayVolume = 0;
  /** Previous day's close (the quote's `close`); the first bar's open before any. */
  private prevClose = 0;
  private lastClose = 0;
  private last: FullQuote | undefined;

  constructor(readonly token: number) {}

  /** The four quotes of `bar`, which lasts until `end` (its session's close if sooner). */
  quotes(bar: Candle, end: number): BarQuote[] {
    const day = istDayNumber(bar.start);
    if (day !== this.day) {
      this.prevClose = Number.isNaN(this.day) ? bar.open : this.lastClose;
      this.day = day;
      this.dayOpen = bar.open;
      this.dayHigh = bar.open;
      this.dayLow = bar.open;
      this.dayVolume = 0;
    }
    const base = this.dayVolume;
    const prices = barPath(bar);
    const length = end - bar.start;
    const out: BarQuote[] = [];
    for (let i = 0; i < prices.length; i++) {
      const price = prices[i] as number;
      // Whole seconds: a quote's time field is in seconds.
      const at =
        bar.start + Math.floor((length * (BAR_POINT_OFFSETS[i] as number)) / 1_000) * 1_000;
      const traded = Math.floor((bar.volume * i) / 3);
      this.dayHigh = Math.max(this.dayHigh, price);
      this.dayLow = Math.min(this.dayLow, price);
      out.push({
        at,
        quote: this.quote(bar, price, at, base + traded, traded - this.traded(bar, i)),
      });
    }
    this.dayVolume = base + bar.volume;
    this.lastClose = bar.close;
    this.last = out.at(-1)?.quote;
    return out;
  }

  /**
   * The last quote again, at `at` (its session's close): nothing traded since, but a
   * venue stepping on quotes sees the session end, so DAY orders expire there as they do
   * in a tick replay (whose recordings go on after the close) and never fill at the next
   * session's open.
   */
  closing(at: number): BarQuote | undefined {
    const last = this.last;
    return last === undefined
      ? undefined
      : { at, quote: { ...last, time: Math.floor(at / 1_000), ltq: 0 } };
  }

  /** Volume traded up to the point before `i` (the quote's last traded quantity is the rest). */
  private traded(bar: Candle, i: number): number {
    return i === 0 ? 0 : Math.floor((bar.volume * (i - 1)) / 3);
  }

  private quote(bar: Candle, price: number, at: number, volume: number, ltq: number): FullQuote {
    const level = [{ price, quantity: BAR_BOOK_DEPTH, orders: 1 }];
    const oi = bar.oi ?? 0;
    const change = price - this.prevClose;
    return {
      token: this.token,
      bids: level,
      asks: level,
      avgPrice: price,
      open: this.dayOpen,
      high: this.dayHigh,
      low: this.dayLow,
      close: this.prevClose,
      ltp: price,
      ltq,
      ltt: Math.floor(bar.start / 1_000),
      time: Math.floor(at / 1_000),
      netChange: change,
      netChangeIndicator: Math.sign(change),
      oi,
      oiDayHigh: oi,
      oiDayLow: oi,
      lowerLimit: 0,
      upperLimit: 0,
      totalBuyQty: BAR_BOOK_DEPTH,
      totalSellQty: BAR_BOOK_DEPTH,
      volume,
    };
  }
}
