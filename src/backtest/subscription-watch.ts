import { type Observable, Subject } from 'rxjs';
import type { Clock } from '../clock/clock.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import type { MarketDataBusStats, SubscribeOptions } from '../market-data/bus-options.ts';
import type { HealthEvent, HealthStatus, StaleEvent } from '../market-data/health.ts';
import type { LastPriceBand } from '../market-data/last-price-band.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';
import type { MarketGreeks, MarketQuote } from '../market-data/market-quote.ts';

/**
 * A market feed that answers as `inner` and remembers every token anyone subscribed to
 * (quotes or greeks), with the instant of its first subscription. A backtest checks them
 * against its data: a token subscribed mid-run and unsubscribed before the end is still
 * known here. Only subscribing is seen, never a quote: nothing per quote is added.
 *
 * @example
 * ```ts
 * const watch = new SubscriptionWatch(market, clock);
 * const kernel = await Kernel.create({ ...options, market: watch });
 * watch.tokens(); // Map token → first subscribed at
 * ```
 */
export class SubscriptionWatch implements MarketFeed {
  private readonly seen = new Map<number, number>();
  private readonly firstSeen = new Subject<number>();

  /**
   * Each token as it is first subscribed, at once (synchronously, inside the subscriber's
   * call): a backtest checks it against its data there and stops the replay, rather than
   * finding out after replaying the rest of the window.
   */
  readonly added$: Observable<number> = this.firstSeen.asObservable();

  /** The inner feed's, when it has one. */
  readonly lastPrice?: (token: number) => LastPriceBand | undefined;

  constructor(
    private readonly inner: MarketFeed,
    private readonly clock: Clock,
  ) {
    if (inner.lastPrice !== undefined) this.lastPrice = inner.lastPrice.bind(inner);
  }

  /** Every token subscribed so far → epoch ms of its first subscription. */
  tokens(): ReadonlyMap<number, number> {
    return this.seen;
  }

  quotes$<M extends QuoteMode>(
    tokens: readonly number[],
    mode: M,
    options?: SubscribeOptions,
  ): Observable<MarketQuote<M>> {
    this.note(tokens);
    return this.inner.quotes$(tokens, mode, options);
  }

  quote$<M extends QuoteMode>(
    token: number,
    mode: M,
    options?: SubscribeOptions,
  ): Observable<MarketQuote<M>> {
    this.note([token]);
    return this.inner.quote$(token, mode, options);
  }

  greeks$(tokens: readonly number[], options?: SubscribeOptions): Observable<MarketGreeks> {
    this.note(tokens);
    return this.inner.greeks$(tokens, options);
  }

  latest<M extends QuoteMode>(token: number, mode: M): MarketQuote<M> | undefined {
    return this.inner.latest(token, mode);
  }

  get health$(): Observable<HealthEvent> {
    return this.inner.health$;
  }

  get stale$(): Observable<StaleEvent> {
    return this.inner.stale$;
  }

  get stats(): MarketDataBusStats {
    return this.inner.stats;
  }

  get holdsChannels(): boolean {
    return this.inner.holdsChannels === true;
  }

  get status(): HealthStatus {
    return this.inner.status;
  }

  quoteTokenList(): number[] {
    return this.inner.quoteTokenList();
  }

  close(): void {
    this.inner.close();
  }

  /**
   * Asking for the stream is what counts (the observable is cold, but every caller in
   * the kernel subscribes what it asks for): the instant is the clock's at the ask.
   */
  private note(tokens: readonly number[]): void {
    const now = this.clock.now();
    for (const t of tokens) {
      if (this.seen.has(t)) continue;
      this.seen.set(t, now);
      this.firstSeen.next(t);
    }
  }
}
