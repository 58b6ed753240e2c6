import type { SessionSpan } from '../../domain/candle.ts';
import type { Exchange } from '../../domain/order-params.ts';

/**
 * The trading calendar as candles need it: the session at an instant and the sessions of
 * its IST date. `TradingCalendar` is one; it is a port so the aggregator stays testable
 * with a hand-made calendar.
 */
export interface CandleCalendar {
  /** The session open at `at`, if any. */
  sessionAt(at: number, exchange?: Exchange): SessionSpan | undefined;
  /** Sessions of the IST date of `at`, in order. */
  sessions(at: number, exchange?: Exchange): readonly SessionSpan[];
}

/**
 * The exchange of a token (from the instrument master once it is loaded), for the
 * candle endpoint's path and the calendar's sessions; undefined when unknown.
 */
export type ExchangeOf = (token: number) => Exchange | undefined;
