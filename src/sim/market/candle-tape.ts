import {
  CANDLE_INTERVAL_MS,
  type CandleInterval,
  candleSlot,
  type SessionSpan,
} from '../../domain/candle.ts';
import { DAY_MS, istDayNumber, istDayStart } from '../../domain/ist.ts';
import type { MarketSessions } from '../../domain/market-sessions.ts';
import type { HistoryModel, HistorySession } from './history-model.ts';
import type { SimInstrument } from './sim-instrument.ts';

const MINUTE_MS = 60_000;

/** The last trade of an underlying as its price path holds it. */
export interface PathTrade {
  readonly ltp: number;
  /** The day's cumulative volume. */
  readonly volume: number;
  /** Open interest; none (0) for what has no open interest, as the sim's underlyings. */
  readonly oi?: number;
}

/** One minute bar of one token: what every longer candle is summed from. */
interface MinuteBar {
  start: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  /** Open interest at the bar's last step. */
  oi: number;
}

/**
 * A served candle: start (epoch ms), open, high, low, close, volume, open interest at its
 * last step (paise, quantities).
 */
export type TapeCandle = readonly [number, number, number, number, number, number, number];

/** The simulator's past, served before the tape's own bars: the model and the instruments it walks. */
export interface TapePast {
  readonly model: HistoryModel;
  readonly instrument: (token: number) => SimInstrument | undefined;
}

/** Intervals the tape serves: ours, plus the endpoint's 2–4 hours. */
export type TapeInterval = CandleInterval | '2h' | '3h' | '4h';
const TAPE_MS: Readonly<Record<TapeInterval, number>> = {
  ...CANDLE_INTERVAL_MS,
  '2h': 7_200_000,
  '3h': 10_800_000,
  '4h': 14_400_000,
};

/**
 * The simulator's price history for its candle endpoint: every market step of every
 * underlying (indexes and equities; options have no path) folded into minute bars, and
 * longer candles summed from those, aligned to each session's open and cut at its close.
 * Volume is what the path traded in the step (the growth of its day volume). Minute bars
 * recorded start at the simulator's start; with a {@link TapePast}, the minutes before it
 * come from the history model (`history-model.ts`), so the endpoint serves years of past.
 *
 * @example
 * ```ts
 * const tape = new CandleTape(hours);
 * tape.onStep(at, 3045, market.trade(3045));
 * tape.candles(3045, '5m', from, to);
 * ```
 */
export class CandleTape {
  private readonly bars = new Map<number, MinuteBar[]>();
  private readonly lastVolume = new Map<number, number>();
  private readonly sessions: SessionSpan[] = [];

  constructor(
    private readonly hours: MarketSessions,
    private readonly past?: TapePast,
  ) {}

  /** Records the step at `at` of `token`'s path. */
  onStep(at: number, token: number, trade: PathTrade): void {
    this.noteSession(at);
    const before = this.lastVolume.get(token) ?? 0;
    // The path's day volume restarts at 0 on a new day.
    const traded = trade.volume >= before ? trade.volume - before : trade.volume;
    this.lastVolume.set(token, trade.volume);
    const start = Math.floor(at / MINUTE_MS) * MINUTE_MS;
    let list = this.bars.get(token);
    if (list === undefined) {
      list = [];
      this.bars.set(token, list);
    }
    const bar = list[list.length - 1];
    if (bar !== undefined && bar.start === start) {
      bar.high = Math.max(bar.high, trade.ltp);
      bar.low = Math.min(bar.low, trade.ltp);
      bar.close = trade.ltp;
      bar.volume += traded;
      bar.oi = trade.oi ?? 0;
      return;
    }
    const p = trade.ltp;
    list.push({ start, open: p, high: p, low: p, close: p, volume: traded, oi: trade.oi ?? 0 });
  }

  /** Candles of `token` whose start is in `[from, to]`, oldest first; the one in progress too. */
  candles(token: number, interval: TapeInterval, from: number, to: number): TapeCandle[] {
    const out: Array<[number, number, number, number, number, number, number]> = [];
    const add = (start: number | undefined, bar: TapeCandle): void => {
      if (start === undefined || start < from || start > to) return;
      const [, open, high, low, close, volume, oi] = bar;
      const last = out[out.length - 1];
      if (last !== undefined && last[0] === start) {
        last[2] = Math.max(last[2], high);
        last[3] = Math.min(last[3], low);
        last[4] = close;
        last[5] += volume;
        last[6] = oi;
      } else out.push([start, open, high, low, close, volume, oi]);
    };
    for (const { session, bars } of this.pastSessions(token, from, to)) {
      // The past has no open interest (the sim's underlyings have none).
      for (const bar of bars) add(this.slotStart(bar[0], interval, session), [...bar, 0]);
    }
    for (const bar of this.bars.get(token) ?? []) {
      const { start, open, high, low, close, volume, oi } = bar;
      add(this.slotStart(start, interval, this.sessionOf(start)), [
        start,
        open,
        high,
        low,
        close,
        volume,
        oi,
      ]);
    }
    return out;
  }

  /** The past's sessions of `token` on the IST days `[from, to]` can hold candles of. */
  private *pastSessions(token: number, from: number, to: number): Generator<HistorySession> {
    const inst = this.past?.instrument(token);
    if (this.past === undefined || inst === undefined) return;
    const { first, last } = this.past.model.dayRange;
    const toDay = Math.min(istDayNumber(to), last);
    for (let day = Math.max(istDayNumber(from), first); day <= toDay; day++) {
      yield* this.past.model.day(inst, day);
    }
  }

  private sessionOf(at: number): SessionSpan | undefined {
    return this.sessions.find((s) => s.start <= at && at < s.end);
  }

  /** The start of the candle a minute bar belongs to; a day candle is stamped 00:00 IST. */
  private slotStart(
    barStart: number,
    interval: TapeInterval,
    session: SessionSpan | undefined,
  ): number | undefined {
    if (interval === '1d') return istDayStart(barStart);
    if (session === undefined) return undefined;
    const ms = TAPE_MS[interval];
    return interval in CANDLE_INTERVAL_MS
      ? candleSlot(barStart, interval as CandleInterval, session).start
      : session.start + Math.floor((barStart - session.start) / ms) * ms;
  }

  /** Keeps the session of `at`: from its first whole minute back to its open, to its close. */
  private noteSession(at: number): void {
    const last = this.sessions[this.sessions.length - 1];
    if (last !== undefined && last.start <= at && at < last.end) return;
    let start = Math.floor(at / MINUTE_MS) * MINUTE_MS;
    // Started mid-session: walk back to the open (sessions open on a whole minute).
    for (let i = 0; i < 1_440 && this.hours.isOpen(start - MINUTE_MS); i++) start -= MINUTE_MS;
    const end = this.hours.nextClose(at) ?? start + DAY_MS;
    this.sessions.push({ start, end });
  }
}
