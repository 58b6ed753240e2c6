import type { Candle, CandleInterval } from '../../domain/candle.ts';
import type { Exchange } from '../../domain/order-params.ts';
import type { CandleCalendar } from './candle-calendar.ts';

/** One request for history: completed candles of a token in `[from, to)`. */
export interface CandleHistoryRequest {
  readonly token: number;
  readonly interval: CandleInterval;
  /** The token's exchange, when known (the service's endpoint needs it). */
  readonly exchange: Exchange | undefined;
  /** Epoch ms: the earliest candle start wanted. */
  readonly from: number;
  /** Epoch ms: only candles ending by then (completed before now). */
  readonly to: number;
  /** The calendar the live candles align to (a source that aggregates uses it too). */
  readonly calendar?: CandleCalendar;
}

/**
 * Where warm-up candles come from: the service's candle endpoint (live, paper) or the
 * recording before the window (backtests). Candles are oldest first, `historical: true`.
 * A source that cannot serve a request (unknown exchange, service down) rejects with an
 * error saying why; the stream then starts cold with a warning.
 *
 * @example
 * ```ts
 * const history: CandleHistory = { candles: async () => [] };
 * ```
 */
export interface CandleHistory {
  candles(request: CandleHistoryRequest, signal?: AbortSignal): Promise<readonly Candle[]>;
}
