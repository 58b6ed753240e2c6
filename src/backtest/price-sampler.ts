import type { Subscription } from 'rxjs';
import type { Paise } from '../domain/money.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';

/** Bar length of the report's price series: one minute. */
const BAR_MS = 60_000;
/** Columns start this long and double as they fill. */
const FIRST_CAPACITY = 256;
/** Modes richest first: the sampler joins a channel the run already has. */
const MODES: readonly QuoteMode[] = ['full', 'ohlcv', 'ltp'];

/** One instrument's price bars, as columns (epoch ms, paise). */
export interface PriceBars {
  token: number;
  /** Start of each bar: the minute, or the first price after a fill that split it. */
  start: number[];
  open: Paise[];
  high: Paise[];
  low: Paise[];
  close: Paise[];
}

/** One token's bars while the run goes: flat typed columns, grown by doubling. */
class BarColumns {
  start = new Float64Array(FIRST_CAPACITY);
  open = new Float64Array(FIRST_CAPACITY);
  high = new Float64Array(FIRST_CAPACITY);
  low = new Float64Array(FIRST_CAPACITY);
  close = new Float64Array(FIRST_CAPACITY);
  length = 0;
  /** Minute of the bar in progress; NaN when the next price starts a new bar. */
  minute = Number.NaN;
  last = Number.NEGATIVE_INFINITY;

  add(at: number, price: Paise): void {
    if (at < this.last) return; // a cached quote older than what was folded already
    this.last = at;
    const minute = Math.floor(at / BAR_MS) * BAR_MS;
    const i = this.length - 1;
    if (minute === this.minute && i >= 0) {
      if (price > (this.high[i] as number)) this.high[i] = price;
      if (price < (this.low[i] as number)) this.low[i] = price;
      this.close[i] = price;
      return;
    }
    if (this.length === this.start.length) this.grow();
    const j = this.length++;
    this.minute = minute;
    this.start[j] = at;
    this.open[j] = price;
    this.high[j] = price;
    this.low[j] = price;
    this.close[j] = price;
  }

  private grow(): void {
    const wider = (a: Float64Array<ArrayBuffer>): Float64Array<ArrayBuffer> => {
      const b = new Float64Array(a.length * 2);
      b.set(a);
      return b;
    };
    this.start = wider(this.start);
    this.open = wider(this.open);
    this.high = wider(this.high);
    this.low = wider(this.low);
    this.close = wider(this.close);
  }
}

/**
 * Folds the last prices a backtest's market publishes into one-minute OHLC bars per
 * followed token, for the report's price charts, benchmark and trade excursions
 * (MAE/MFE). Ticks are never kept: a year of minutes for two tokens is about 190 000
 * bars of five numbers. A fill {@link split}s its token's bar, so the prices seen while
 * a trade was open can be told from those just before it.
 *
 * It joins a channel the run already has (the richest mode with a quote), so the
 * market's demand, and with it every fill, is what it would be without it; only a
 * token nothing follows yet gets an `ltp` channel, and only when {@link follow} is
 * asked to `create` one (a benchmark nobody trades).
 *
 * @example
 * ```ts
 * const sampler = new PriceSampler(market);
 * sampler.follow(3045);
 * // … replay …
 * const bars = sampler.bars(); // [{ token: 3045, start: […], open: […], … }]
 * ```
 */
export class PriceSampler {
  private readonly columns = new Map<number, BarColumns>();
  private readonly subs: Subscription[] = [];

  constructor(private readonly feed: MarketFeed) {}

  /** Tokens sampled so far. */
  get tokens(): number[] {
    return [...this.columns.keys()];
  }

  /**
   * Starts sampling `token` through a channel the run already has; with `create`, an
   * `ltp` channel is opened when there is none. False when nothing could be joined yet.
   */
  follow(token: number, create = false): boolean {
    if (this.columns.has(token)) return true;
    const mode = MODES.find((m) => this.feed.latest(token, m) !== undefined);
    if (mode === undefined && !create) return false;
    const bars = new BarColumns();
    this.columns.set(token, bars);
    this.subs.push(
      this.feed.quote$(token, mode ?? 'ltp').subscribe((q) => bars.add(q.receivedAt, q.quote.ltp)),
    );
    return true;
  }

  /** Ends the bar in progress of `token`: the next price starts a new one (a fill). */
  split(token: number): void {
    const bars = this.columns.get(token);
    if (bars !== undefined) bars.minute = Number.NaN;
  }

  /** Stops sampling (the bars stay). */
  stop(): void {
    for (const s of this.subs.splice(0)) s.unsubscribe();
  }

  /** The bars of every sampled token that got a price, oldest first. */
  bars(): PriceBars[] {
    const out: PriceBars[] = [];
    for (const [token, c] of this.columns) {
      if (c.length === 0) continue;
      const n = c.length;
      out.push({
        token,
        start: Array.from(c.start.subarray(0, n)),
        open: Array.from(c.open.subarray(0, n)),
        high: Array.from(c.high.subarray(0, n)),
        low: Array.from(c.low.subarray(0, n)),
        close: Array.from(c.close.subarray(0, n)),
      });
    }
    return out;
  }
}
