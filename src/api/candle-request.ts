import type { Exchange } from '../domain/order-params.ts';
import type { Call } from './interpret-answer.ts';
import {
  type CandleRow,
  candleRowsSchema,
  formatCandleQueryTime,
  readCandleRows,
} from './schemas/candle.ts';

/** The endpoint's interval names (api-facts.md, "Historical candles"). */
const ENDPOINT_INTERVALS = [
  'min',
  '3min',
  '5min',
  '10min',
  '15min',
  '30min',
  'hour',
  '2hours',
  '3hours',
  '4hours',
  'day',
  'week',
  'month',
] as const;
/** One interval name of the candle endpoint. */
export type EndpointInterval = (typeof ENDPOINT_INTERVALS)[number];

/** One request of `GET /candle/:exchange/:token/:interval?from=…&to=…`. */
export interface CandleRequest {
  readonly exchange: Exchange;
  readonly token: number;
  readonly interval: EndpointInterval;
  /** Epoch ms; sent as IST `YYYY-MM-DDTHH:MM:SS`. */
  readonly from: number;
  /** Epoch ms; sent as IST `YYYY-MM-DDTHH:MM:SS`. */
  readonly to: number;
  /** Ask for open interest (`&oi=1`, NFO only). */
  readonly oi?: boolean;
}

/** The path and query of `request`: the exchange lowercase, times in IST without offset. */
function candlePath(request: CandleRequest): string {
  const q = new URLSearchParams({
    from: formatCandleQueryTime(request.from),
    to: formatCandleQueryTime(request.to),
  });
  if (request.oi === true) q.set('oi', '1');
  const exchange = request.exchange.toLowerCase();
  return `/candle/${exchange}/${request.token}/${request.interval}?${q.toString()}`;
}

/**
 * The client call of one candle request: the answer is a bare JSON array, read by
 * {@link readCandleRows}; an error envelope is read the usual way.
 *
 * @example
 * ```ts
 * client.candles({ exchange: 'NSE', token: 3045, interval: 'min', from, to });
 * ```
 */
export function candleCall(request: CandleRequest, signal?: AbortSignal): Call<CandleRow[]> {
  return {
    operation: 'candles',
    method: 'GET',
    path: candlePath(request),
    schema: candleRowsSchema,
    records: { read: (text) => readCandleRows('candles', text) },
    rateClass: 'other',
    kind: 'read',
    signal,
  };
}
