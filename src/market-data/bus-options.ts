import type { Logger } from 'pino';
import type { Clock } from '../clock/clock.ts';
import type { MarketSessions } from '../domain/market-sessions.ts';
import type { QuoteSource } from './quote-source.ts';
import type { TickObserver } from './tick-observer.ts';

// Options, subscription options and counters of the market-data bus, with the checks its
// options go through: kept apart so the facade holds only the wiring.

/**
 * Options of {@link MarketDataBus}.
 *
 * @example
 * ```ts
 * const bus = new MarketDataBus({ source: client, clock, sessions: calendar, logger,
 *   intervalMs: 1_000, batchSize: 50, warmupMs: 60_000 });
 * ```
 */
export interface MarketDataBusOptions {
  /** Where quotes and greeks come from (the HTTP client, a replay, a fake). */
  readonly source: QuoteSource;
  /** Time and timers. */
  readonly clock: Clock;
  /** Trading sessions; default: always open. */
  readonly sessions?: MarketSessions;
  readonly logger: Logger;
  /** Default poll interval of a quote subscription. Default 1 000 ms. */
  readonly intervalMs?: number;
  /** Default poll interval of a greeks subscription. Default 5 000 ms. */
  readonly greeksIntervalMs?: number;
  /** Most tokens in one request. Default 50. */
  readonly batchSize?: number;
  /** Budget of quote requests of the whole bus, sent evenly spaced. Default 9/s. */
  readonly quoteRequestsPerSecond?: number;
  /** The service's quote limit per sliding second. Default 10 (documented). */
  readonly serviceQuoteLimitPerSecond?: number;
  /**
   * Latency variation the service's limit must survive: quote sends are spaced at least
   * `(1000 + margin) / serviceQuoteLimitPerSecond` ms apart. Default 250 ms.
   */
  readonly jitterMarginMs?: number;
  /** Budget of greeks requests of the whole bus, sent evenly spaced. Default 10/s. */
  readonly greeksRequestsPerSecond?: number;
  /** A token the service rejects is set aside and asked for alone this often. Default 300 000 ms. */
  readonly rejectedRetryMs?: number;
  /** Polling starts this long before a session opens. Default 60 000 ms. */
  readonly warmupMs?: number;
  /** A token is stale after this many effective intervals without fresh data. Default 3. */
  readonly staleAfterIntervals?: number;
  /** Cap of the backoff after repeated failures. Default 30 000 ms. */
  readonly maxBackoffMs?: number;
  /** A request without an answer after this long fails. Default 15 000 ms. */
  readonly requestTimeoutMs?: number;
  /** With no known next session, look at the calendar again after this long. Default 1 h. */
  readonly closedRecheckMs?: number;
  /** Told around each published answer of quotes (metrics: where a tick starts). */
  readonly tickObserver?: TickObserver;
}

/**
 * Options of one subscription.
 *
 * @example
 * ```ts
 * bus.quotes$([26000, 26009], 'ohlcv', { intervalMs: 5_000 });
 * ```
 */
export interface SubscribeOptions {
  /** How often the data should be refreshed; default the bus's `intervalMs`. */
  readonly intervalMs?: number;
  /**
   * Full quotes only, on a feed that `holdsChannels` (a replay): when the channel's last
   * follower leaves, it is kept dormant, not closed, and brought up to date only when
   * read (`latest`) or followed again, without decoding every quote meanwhile. A held
   * follower back is sent the newest quote only if one changed since it left, as
   * following on would have sent it: a backtest's paper venue between orders.
   */
  readonly held?: boolean;
}

/** Counters of the bus, for tests, benchmarks and dashboards. */
export interface MarketDataBusStats {
  /** Quote requests sent. */
  readonly quoteRequests: number;
  /** Greeks requests sent. */
  readonly greeksRequests: number;
  /** Requests that failed. */
  readonly failedRequests: number;
  /** Requests sent and not yet settled. */
  readonly inFlightRequests: number;
  /** Tokens with at least one quote subscriber. */
  readonly quoteTokens: number;
  /** Tokens with at least one greeks subscriber. */
  readonly greeksTokens: number;
  /** Tokens the service rejects, set aside (quotes and greeks); absent for a replay. */
  readonly rejectedTokens?: number;
  /** Running poll loops. */
  readonly pollGroups: number;
}

/** `value` when it is a finite positive number; a RangeError naming `what` otherwise. */
export function positive(value: number, what: string): number {
  if (!(Number.isFinite(value) && value > 0))
    throw new RangeError(`${what} must be positive: ${value}`);
  return value;
}

/** `value` when it is a positive integer; a RangeError naming `what` otherwise. */
export function positiveInt(value: number, what: string): number {
  if (!(Number.isInteger(value) && value > 0)) {
    throw new RangeError(`${what} must be a positive integer: ${value}`);
  }
  return value;
}

/** `tokens` without repeats; a RangeError when one is not an instrument token. */
export function uniqueTokens(tokens: readonly number[]): number[] {
  for (const t of tokens) {
    if (!(Number.isSafeInteger(t) && t >= 0)) throw new RangeError(`not an instrument token: ${t}`);
  }
  return [...new Set(tokens)];
}
