import type { EndpointInterval } from '../../api/candle-request.ts';
import { RateLimiter } from '../../api/pacing/rate-limiter.ts';
import type { CandleRow } from '../../api/schemas/candle.ts';
import type { TiqsClient } from '../../api/tiqs-client.ts';
import type { Clock } from '../../clock/clock.ts';
import { type Candle, type CandleInterval, candleSlot } from '../../domain/candle.ts';
import { DAY_MS } from '../../domain/ist.ts';
import type { Exchange } from '../../domain/order-params.ts';
import type { CandleCalendar } from './candle-calendar.ts';
import type { CandleHistory, CandleHistoryRequest } from './candle-history.ts';

/** Our intervals as the endpoint names them. */
const ENDPOINT_INTERVAL_OF: Readonly<Record<CandleInterval, EndpointInterval>> = {
  '1m': 'min',
  '3m': '3min',
  '5m': '5min',
  '10m': '10min',
  '15m': '15min',
  '30m': '30min',
  '1h': 'hour',
  '1d': 'day',
};

/** The documented limit of the candle endpoint: 10 requests a second. */
const CANDLE_REQUESTS_PER_SECOND = 10;

/** Default span of one request: a month (a month of 1-minute bars is ~8,000 rows). */
const DEFAULT_CHUNK_MS = 30 * DAY_MS;

/** What the endpoint history needs of the client. */
type CandleEndpoint = Pick<TiqsClient, 'candles'>;

/** Options of {@link EndpointCandleHistory}. */
export interface EndpointCandleHistoryOptions {
  client: CandleEndpoint;
  /** Network time: the pacing of the requests. */
  clock: Clock;
  calendar: () => CandleCalendar | undefined;
  /** Span of one request per interval, ms; default a month (daily: ten years). */
  chunkMs?: Partial<Record<CandleInterval, number>>;
  /** Requests a second; default the documented 10. */
  requestsPerSecond?: number;
}

/**
 * History from the service's candle endpoint (live and paper): the range cut into chunks,
 * requests paced to the endpoint's own limit, rows mapped to candles aligned as live ones
 * are (the slot of the row's time in its session; a daily row, stamped 00:00, spans its
 * day's sessions). Rows outside every session are dropped. NFO and BFO requests ask for
 * open interest (`oi=1`), so derivatives' warm-up candles carry `oi` as live ones do.
 *
 * @example
 * ```ts
 * const history = new EndpointCandleHistory({ client, clock: networkClock, calendar: () => store.calendar });
 * ```
 */
export class EndpointCandleHistory implements CandleHistory {
  private readonly limiter: RateLimiter;

  constructor(private readonly options: EndpointCandleHistoryOptions) {
    const limit = options.requestsPerSecond ?? CANDLE_REQUESTS_PER_SECOND;
    this.limiter = new RateLimiter(options.clock, [{ limit, intervalMs: 1_000 }]);
  }

  async candles(request: CandleHistoryRequest, signal?: AbortSignal): Promise<Candle[]> {
    const { token, interval, exchange, from, to } = request;
    if (exchange === undefined) {
      throw new Error(`the exchange of token ${token} is unknown (no instrument master entry)`);
    }
    const chunk =
      this.options.chunkMs?.[interval] ?? (interval === '1d' ? 3650 * DAY_MS : DEFAULT_CHUNK_MS);
    // Derivatives' candles carry open interest, as their live quotes do (`oi=1`, F&O only).
    const oi = exchange === 'NFO' || exchange === 'BFO';
    const rows: CandleRow[] = [];
    for (let start = from; start < to; start += chunk) {
      await this.limiter.acquire(signal);
      const end = Math.min(start + chunk, to);
      const part = await this.options.client.candles(
        {
          exchange,
          token,
          interval: ENDPOINT_INTERVAL_OF[interval],
          from: start,
          to: end,
          ...(oi ? { oi } : {}),
        },
        signal,
      );
      rows.push(...part);
    }
    return toCandles(rows, token, interval, this.options.calendar(), exchange);
  }
}

/** Rows as candles, oldest first and one per start (chunks may overlap at their edges). */
function toCandles(
  rows: readonly CandleRow[],
  token: number,
  interval: CandleInterval,
  calendar: CandleCalendar | undefined,
  exchange?: Exchange,
): Candle[] {
  if (calendar === undefined) return [];
  const byStart = new Map<number, Candle>();
  for (const r of rows) {
    const span = spanOf(r.time, interval, calendar, exchange);
    if (span === undefined) continue;
    byStart.set(span.start, {
      token,
      interval,
      ...span,
      open: r.open,
      high: r.high,
      low: r.low,
      close: r.close,
      volume: r.volume,
      ...(r.oi === undefined || r.oi === 0 ? {} : { oi: r.oi }),
      historical: true,
    });
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start);
}

function spanOf(
  time: number,
  interval: CandleInterval,
  calendar: CandleCalendar,
  exchange?: Exchange,
): { start: number; end: number } | undefined {
  if (interval === '1d') {
    const sessions = calendar.sessions(time, exchange);
    const first = sessions[0];
    const last = sessions[sessions.length - 1];
    return first === undefined || last === undefined
      ? undefined
      : { start: first.start, end: last.end };
  }
  const session = calendar.sessionAt(time, exchange);
  return session === undefined ? undefined : candleSlot(time, interval, session);
}
