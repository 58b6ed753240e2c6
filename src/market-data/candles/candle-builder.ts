import { type Candle, type CandleInterval, candleSlot } from '../../domain/candle.ts';
import { istDayNumber } from '../../domain/ist.ts';
import type { Exchange } from '../../domain/order-params.ts';
import type { CandleCalendar } from './candle-calendar.ts';

/** What a candle takes from a quote: when it traded, at what price, the day's volume so far. */
export interface CandleTick {
  /** Epoch ms of the trade (the quote's `sourceTime`). */
  readonly at: number;
  readonly price: number;
  /** The day's cumulative traded quantity. */
  readonly dayVolume: number;
  /** Open interest; 0 when the instrument has none. */
  readonly oi: number;
}

interface Working {
  start: number;
  end: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** Cumulative day volume before the candle's first trade. */
  baseline: number;
  /** Cumulative day volume at its latest trade. */
  dayVolume: number;
  oi: number;
  day: number;
  /** The calendar whose session placed the slot. */
  calendar: CandleCalendar;
}

/**
 * Builds the candles of one token and interval from its trades, one at a time: the one
 * aggregation the live feed (bus), the replay (backtest) and history from a recording all
 * run through. Pure: no clock and no timers (the caller closes a candle at its end with
 * {@link closeAt}).
 *
 * Rules: a trade belongs to the candle slot of its own time, aligned to its session's
 * open; a trade outside every session, or older than the working candle (a late answer),
 * moves no price (its volume lands in the next candle, as the day's total keeps it); a
 * slot without a trade gets no candle; a trade whose slot ended before the builder started
 * makes none either. Volume is the growth of the day's cumulative volume over the candle,
 * the day's volume taken as the highest seen that IST day (a lower one is a lagging
 * answer; only a new day restarts the count). A builder running at the day's open
 * counts the day's first candle from 0 (pre-open trades included); one that joined
 * mid-day counts from the last day volume it saw before its start, else from its first
 * trade.
 *
 * @example
 * ```ts
 * const b = new CandleBuilder(3045, '1m', () => calendar);
 * b.add({ at: open + 1_000, price: 80_000, dayVolume: 10, oi: 0 });
 * b.closeAt(open + 60_000); // the 09:15 candle
 * ```
 */
export class CandleBuilder {
  private working: Working | undefined;
  /** End of the latest candle closed: trades before it are late. */
  private closedUntil = Number.NEGATIVE_INFINITY;
  /** Cumulative day volume at the last trade counted, and its IST day. */
  private counted: { day: number; volume: number } | undefined;

  constructor(
    readonly token: number,
    readonly interval: CandleInterval,
    private readonly calendar: () => CandleCalendar | undefined,
    private readonly exchange?: Exchange,
    /**
     * When the builder started (a live stream's first subscription): a trade whose slot
     * ended by then (the service's last trade before it, yesterday's close) makes no
     * candle, since that candle was over before anyone watched (history has it).
     */
    private readonly notBefore = Number.NEGATIVE_INFINITY,
  ) {}

  /** End of the working candle (when it must be closed), if one is open. */
  get openUntil(): number | undefined {
    return this.working?.end;
  }

  /** Adds a trade; returns the candle it closed (a trade of a later slot), if any. */
  add(tick: CandleTick): Candle | undefined {
    const calendar = this.calendar();
    const w = this.working;
    // A tick inside the open slot, on the calendar that placed it, falls in that slot (its
    // session holds the slot): no session, slot or day to work out, as for every quote of
    // a bar but its first (issue 13).
    if (w !== undefined && w.calendar === calendar && tick.at >= w.start && tick.at < w.end) {
      this.update(w, tick);
      return undefined;
    }
    const session = calendar?.sessionAt(tick.at, this.exchange);
    if (calendar === undefined || session === undefined) return undefined;
    const slot = candleSlot(tick.at, this.interval, session);
    const day = istDayNumber(tick.at);
    if (slot.end <= this.notBefore) {
      // Before the start: no candle, but the day's volume by then is this day's baseline.
      this.count(day, tick.dayVolume);
      return undefined;
    }
    if (slot.end <= this.closedUntil || (w !== undefined && slot.start < w.start)) return undefined;
    if (w !== undefined && slot.start === w.start) {
      this.update(w, tick);
      return undefined;
    }
    const closed = w === undefined ? undefined : this.finish(w);
    const dayOpen = calendar.sessions(tick.at, this.exchange)[0]?.start ?? slot.start;
    // Counted today: from there (never below it). Running at the day's open (started
    // before it, or counting since an earlier day): from 0, pre-open trades included.
    // Joined mid-day with nothing known yet: from this trade.
    let baseline = tick.dayVolume;
    if (this.counted?.day === day) baseline = this.counted.volume;
    else if (this.notBefore <= dayOpen || this.counted !== undefined) baseline = 0;
    // Keys written out, not `...slot`: a spread followed by more keys built this object on
    // V8's slow path and left it a shape whose every field update was slow (issue 13).
    this.working = {
      start: slot.start,
      end: slot.end,
      open: tick.price,
      high: tick.price,
      low: tick.price,
      close: tick.price,
      baseline,
      dayVolume: Math.max(baseline, tick.dayVolume),
      oi: tick.oi,
      day,
      calendar,
    };
    return closed;
  }

  /** Folds a tick of the open slot into it. */
  private update(w: Working, tick: CandleTick): void {
    w.high = Math.max(w.high, tick.price);
    w.low = Math.min(w.low, tick.price);
    w.close = tick.price;
    // A lower day total is a lagging answer: the day's volume never falls within a day.
    w.dayVolume = Math.max(w.dayVolume, tick.dayVolume);
    w.oi = tick.oi;
  }

  /** Closes the working candle when it has ended by `at`; returns it if so. */
  closeAt(at: number): Candle | undefined {
    const w = this.working;
    return w !== undefined && w.end <= at ? this.finish(w) : undefined;
  }

  /** Notes the day's volume counted by now: the highest seen this IST day. */
  private count(day: number, volume: number): void {
    const c = this.counted;
    if (c === undefined || c.day < day) this.counted = { day, volume };
    else if (c.day === day) c.volume = Math.max(c.volume, volume);
  }

  private finish(w: Working): Candle {
    this.working = undefined;
    this.closedUntil = w.end;
    this.count(w.day, w.dayVolume);
    return {
      token: this.token,
      interval: this.interval,
      start: w.start,
      end: w.end,
      open: w.open,
      high: w.high,
      low: w.low,
      close: w.close,
      volume: Math.max(0, w.dayVolume - w.baseline),
      ...(w.oi > 0 ? { oi: w.oi } : {}),
      historical: false,
    };
  }
}
