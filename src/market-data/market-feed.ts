import type { Observable } from 'rxjs';
import type { QuoteMode } from '../domain/order-params.ts';
import type { MarketDataBusStats, SubscribeOptions } from './bus-options.ts';
import type { HealthEvent, HealthStatus, StaleEvent } from './health.ts';
import type { LastPriceBand } from './last-price-band.ts';
import type { MarketGreeks, MarketQuote } from './market-quote.ts';

/**
 * The market data the kernel, the strategies and the paper broker use: shared quote and
 * greeks streams with last-value replay, the cached quotes, health and lifecycle.
 * `MarketDataBus` (polling, live and paper) and `ReplayMarket` (a recording pushed at its
 * recorded instants, backtests) implement it, so the rest of the kernel is the same
 * objects in every mode.
 *
 * @example
 * ```ts
 * const feed: MarketFeed = new MarketDataBus({ source: client, clock, logger });
 * feed.quote$(3045, 'ltp').subscribe((q) => console.log(q.quote.ltp));
 * ```
 */
export interface MarketFeed {
  /** Quotes of `tokens` in `mode`: the cached quote of each at once (if any), then each change. */
  quotes$<M extends QuoteMode>(
    tokens: readonly number[],
    mode: M,
    options?: SubscribeOptions,
  ): Observable<MarketQuote<M>>;
  /** Quotes of one token; see {@link quotes$}. */
  quote$<M extends QuoteMode>(
    token: number,
    mode: M,
    options?: SubscribeOptions,
  ): Observable<MarketQuote<M>>;
  /** Greeks of option tokens: the cached value at once (if any), then each change. */
  greeks$(tokens: readonly number[], options?: SubscribeOptions): Observable<MarketGreeks>;
  /** The cached quote of a subscribed token in `mode`, if one has arrived. */
  latest<M extends QuoteMode>(token: number, mode: M): MarketQuote<M> | undefined;
  /** Overall health first (at once), then every change. */
  readonly health$: Observable<HealthEvent>;
  /** Tokens turning stale or fresh again. */
  readonly stale$: Observable<StaleEvent>;
  /** Counters, for logs and dashboards. */
  readonly stats: MarketDataBusStats;
  /** Overall health now. */
  readonly status: HealthStatus;
  /** Tokens with at least one quote subscriber, ascending. */
  quoteTokenList(): number[];
  /**
   * Health of a subscribed token (`rejected` when the service rejects it and it is set
   * aside); undefined for tokens nobody subscribes to. A replay, which cannot fail, has none.
   */
  tokenHealth?(token: number): HealthStatus | undefined;
  /** Tokens the service rejects, set aside and retried alone now and then, ascending. */
  rejectedTokenList?(): number[];
  /**
   * The last price of a subscribed token with the day's band, as `latest` would give
   * them (the full quote's when one is followed, else the LTP with no band), for feeds
   * that can answer without building the full quote (a replay holding its channel).
   */
  lastPrice?(token: number): LastPriceBand | undefined;
  /** Whether {@link SubscribeOptions.held} subscriptions are held (a replay's feed). */
  readonly holdsChannels?: boolean;
  /** Stops and completes every stream. */
  close(): void;
}
