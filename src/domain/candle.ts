import type { Paise } from './money.ts';

/** Candle intervals a strategy can ask for (`ctx.market.candles$`). */
export const CANDLE_INTERVALS = ['1m', '3m', '5m', '10m', '15m', '30m', '1h', '1d'] as const;
/** One candle interval; `1d` is one candle per trading session. */
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

/** Length of each interval in ms; `1d` is capped by its session's end like every other. */
export const CANDLE_INTERVAL_MS: Readonly<Record<CandleInterval, number>> = {
  '1m': 60_000,
  '3m': 180_000,
  '5m': 300_000,
  '10m': 600_000,
  '15m': 900_000,
  '30m': 1_800_000,
  '1h': 3_600_000,
  '1d': 86_400_000,
};

/**
 * One completed candle: `[start, end)` in epoch ms, prices in integer paise, and the
 * volume traded in it (from the day's cumulative volume). `historical` is true for the
 * warm-up candles that `history: N` delivers before the live ones.
 *
 * @example
 * ```ts
 * const c: Candle = {
 *   token: 3045, interval: '1m', start: Date.parse('2026-11-20T09:15:00+05:30'),
 *   end: Date.parse('2026-11-20T09:16:00+05:30'), open: 80_010, high: 80_100, low: 79_990,
 *   close: 80_050, volume: 1_250, historical: false,
 * };
 * ```
 */
export interface Candle {
  readonly token: number;
  readonly interval: CandleInterval;
  /** Epoch ms of the candle's first instant (aligned to its session's open). */
  readonly start: number;
  /** Epoch ms just past its last instant: `start` + interval, or the session's close. */
  readonly end: number;
  readonly open: Paise;
  readonly high: Paise;
  readonly low: Paise;
  readonly close: Paise;
  /** Quantity traded in the candle. */
  readonly volume: number;
  /** Open interest at the candle's last update (derivatives only). */
  readonly oi?: number;
  /** True for warm-up candles delivered from history. */
  readonly historical: boolean;
}

/** A session as candles need it: `[start, end)` in epoch ms. */
export interface SessionSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * The candle slot of `at` within `session`: aligned to the session's open, cut at its
 * close, so no candle spans a session break.
 *
 * @example
 * ```ts
 * const open = Date.parse('2026-11-20T09:15:00+05:30');
 * candleSlot(open + 7 * 60_000 + 5, '5m', { start: open, end: open + 375 * 60_000 });
 * // { start: open + 5 * 60_000, end: open + 10 * 60_000 }
 * ```
 */
export function candleSlot(
  at: number,
  interval: CandleInterval,
  session: SessionSpan,
): SessionSpan {
  const ms = CANDLE_INTERVAL_MS[interval];
  const start = session.start + Math.floor((at - session.start) / ms) * ms;
  return { start, end: Math.min(start + ms, session.end) };
}
