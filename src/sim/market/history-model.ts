import type { SessionSpan } from '../../domain/candle.ts';
import { DAY_MS, istDayNumber, istDayStartOf } from '../../domain/ist.ts';
import type { MarketSessions } from '../../domain/market-sessions.ts';
import { hashInts, Prng } from '../prng.ts';
import { historyLevel } from './history-levels.ts';
import type { SimInstrument } from './sim-instrument.ts';

const MINUTE_MS = 60_000;
/** Open minutes in a trading year: 252 days of 6h15m. */
const OPEN_MINUTES_PER_YEAR = 252 * 375;
/** How far back the past reaches: ten years before the simulator's start. */
const HISTORY_DAYS = 3_653;

/** One generated minute bar: start (epoch ms), open, high, low, close (paise), volume. */
export type HistoryMinute = readonly [number, number, number, number, number, number];

/** The minute bars of one session of one day. */
export interface HistorySession {
  readonly session: SessionSpan;
  readonly bars: readonly HistoryMinute[];
}

/** Options of {@link HistoryModel}. */
export interface HistoryModelOptions {
  readonly seed: number;
  readonly hours: MarketSessions;
  /** The simulator's start: the past ends at its minute (the live tape takes over). */
  readonly startAt: number;
}

/**
 * The simulator's past, before its start, for the candle endpoint: for each session of
 * each IST day, a seeded random walk of minute closes from the day's level to the next
 * calendar day's (a Brownian bridge, so days join up and weekends gap), with wicks and
 * volume, every price on the tick. A pure function of (seed, token, day): the same past
 * whenever and however often it is asked (what `history` resumes on). It does not meet
 * the live tape's base price at the start; the start day's minutes before the start are
 * past, the rest live.
 *
 * @example
 * ```ts
 * const model = new HistoryModel({ seed: 1, hours, startAt });
 * model.day(sbin, istDayNumber(Date.parse('2025-06-02T12:00:00+05:30')));
 * ```
 */
export class HistoryModel {
  private readonly cutoff: number;

  constructor(private readonly options: HistoryModelOptions) {
    this.cutoff = Math.floor(options.startAt / MINUTE_MS) * MINUTE_MS;
  }

  /** First and last IST day number the past may hold bars on. */
  get dayRange(): { first: number; last: number } {
    const last = istDayNumber(this.cutoff);
    return { first: last - HISTORY_DAYS, last };
  }

  /** The sessions of IST day `day` with their minute bars before the start; none for options. */
  day(inst: SimInstrument, day: number): HistorySession[] {
    const { first, last } = this.dayRange;
    if (inst.kind === 'option' || day < first || day > last) return [];
    const out: HistorySession[] = [];
    for (const session of this.sessions(day)) {
      if (session.start >= this.cutoff) break;
      const bars = this.walk(inst, day, session, out.length);
      out.push({ session, bars: bars.filter((b) => b[0] < this.cutoff) });
    }
    return out;
  }

  private sessions(day: number): SessionSpan[] {
    const { hours } = this.options;
    const dayStart = istDayStartOf(day);
    const dayEnd = dayStart + DAY_MS;
    const out: SessionSpan[] = [];
    let open = hours.nextOpen(dayStart);
    while (open !== undefined && open < dayEnd && out.length < 4) {
      const close = Math.min(hours.nextClose(open) ?? dayEnd, dayEnd);
      if (close <= open) break;
      out.push({ start: open, end: close });
      open = hours.nextOpen(close);
    }
    return out;
  }

  private walk(
    inst: SimInstrument,
    day: number,
    session: SessionSpan,
    part: number,
  ): HistoryMinute[] {
    const { seed } = this.options;
    const vol = inst.vol ?? 0.2;
    const base = Math.log(inst.basePrice ?? 10_000);
    const from = base + historyLevel(seed, inst.token, day, vol / 0.2);
    const to = base + historyLevel(seed, inst.token, day + 1, vol / 0.2);
    const n = Math.ceil((session.end - session.start) / MINUTE_MS);
    const sigma = vol / Math.sqrt(OPEN_MINUTES_PER_YEAR);
    const rng = new Prng(hashInts(seed, inst.token, day, part, 0x4a1c));
    const walk = new Float64Array(n + 1);
    for (let i = 1; i <= n; i++) walk[i] = (walk[i - 1] as number) + sigma * rng.normal();
    // Bridge: the walk ends exactly at the next day's level, so the past has the levels' trend.
    const drift = (to - from - (walk[n] as number)) / n;
    const tick = inst.tick;
    const price = (x: number) => Math.max(tick, Math.round(Math.exp(x) / tick) * tick);
    const bars: HistoryMinute[] = [];
    let open = price(from);
    for (let i = 1; i <= n; i++) {
      const close = price(from + (walk[i] as number) + drift * i);
      const wickUp = Math.abs(rng.normal()) * sigma * 0.5;
      const wickDown = Math.abs(rng.normal()) * sigma * 0.5;
      const high = Math.max(open, close, price(Math.log(Math.max(open, close)) + wickUp));
      const low = Math.min(open, close, price(Math.log(Math.min(open, close)) - wickDown));
      const volume = inst.lotSize * Math.round(3_000 + 6_000 * rng.next());
      bars.push([session.start + (i - 1) * MINUTE_MS, open, high, low, close, volume]);
      open = close;
    }
    return bars;
  }
}
