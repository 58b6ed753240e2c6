import { filter, Observable, Subject, type Subscriber } from 'rxjs';
import type { Clock } from '../clock/clock.ts';
import type { Candle, CandleInterval } from '../domain/candle.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import type { CandleHub, CandleOptions } from './candles/candle-hub.ts';
import type { HealthEvent, HealthStatus } from './health.ts';
import type { SubscribeOptions } from './market-data-bus.ts';
import type { MarketFeed } from './market-feed.ts';
import type { MarketGreeks, MarketQuote } from './market-quote.ts';

/** How the data of one strategy's tokens is doing, for its status and the summary. */
export interface DataHealth {
  /** `ok` only when every token it asked for is; else the worst of them. */
  readonly status: HealthStatus;
  /** Its tokens the service rejects (set aside), ascending. */
  readonly rejectedTokens: readonly number[];
  /** Its tokens without fresh data within K intervals, ascending. */
  readonly staleTokens: readonly number[];
}

/** Worst first: what a strategy's data status shows when its tokens disagree. */
const SEVERITY: readonly HealthStatus[] = ['session-expired', 'rejected', 'stale', 'degraded'];

const registry = new WeakMap<MarketFeed, Map<string, StrategyMarket>>();

/**
 * The market feed as one strategy sees it (`ctx.market`): the feed's shared streams,
 * plus a `health$` that carries the feed's overall health and the events of the tokens
 * *this* strategy asked for — so a strategy learns that one of its tokens is rejected
 * by the service (`status: 'rejected'`), and the kernel's summary can say which
 * strategies are starved ({@link StrategyMarket.summary}).
 *
 * @example
 * ```ts
 * const market = StrategyMarket.of(bus, clock, 'sma');
 * market.health$.pipe(filter((e) => e.status === 'rejected')).subscribe((e) => log.warn(e));
 * ```
 */
export class StrategyMarket {
  /** Token → live subscriptions of this strategy that name it. */
  private readonly asked = new Map<number, number>();
  private readonly added = new Subject<number>();

  /**
   * The feed's overall health at once, the current trouble of each of this strategy's
   * tokens (and of each token it asks for later), then every change of either.
   */
  readonly health$: Observable<HealthEvent>;

  /** Candle warnings of this strategy's own `candles$` (cold starts), replayed to late subscribers. */
  private readonly candleWarnings: HealthEvent[] = [];
  private readonly candleWarning = new Subject<HealthEvent>();

  constructor(
    private readonly feed: MarketFeed,
    private readonly clock: Clock,
    private readonly candles?: CandleHub,
  ) {
    this.health$ = new Observable<HealthEvent>((subscriber) => {
      const sub = feed.health$
        .pipe(filter((e) => e.token === undefined || this.asked.has(e.token)))
        .subscribe(subscriber);
      for (const w of this.candleWarnings) subscriber.next(w);
      sub.add(this.candleWarning.subscribe(subscriber));
      for (const token of this.asked.keys()) this.replay(token, subscriber);
      sub.add(this.added.subscribe((token) => this.replay(token, subscriber)));
      return sub;
    });
  }

  /**
   * The view of `strategyId` on `feed`, made on first use (the summary lists it);
   * `candles` serves its `candles$` (one hub shared by every strategy of the bot).
   */
  static of(
    feed: MarketFeed,
    clock: Clock,
    strategyId: string,
    candles?: CandleHub,
  ): StrategyMarket {
    let views = registry.get(feed);
    if (views === undefined) {
      views = new Map();
      registry.set(feed, views);
    }
    let view = views.get(strategyId);
    if (view === undefined) {
      view = new StrategyMarket(feed, clock, candles);
      views.set(strategyId, view);
    }
    return view;
  }

  /** Data health of every strategy's view on `feed`, by strategy id. */
  static summary(feed: MarketFeed): Record<string, DataHealth> {
    const views = registry.get(feed) ?? new Map<string, StrategyMarket>();
    return Object.fromEntries([...views].map(([id, view]) => [id, view.dataHealth()]));
  }

  /** See {@link MarketFeed.quotes$}. */
  quotes$<M extends QuoteMode>(
    tokens: readonly number[],
    mode: M,
    options?: SubscribeOptions,
  ): Observable<MarketQuote<M>> {
    return this.track(tokens, () => this.feed.quotes$(tokens, mode, options));
  }

  /** See {@link MarketFeed.quote$}. */
  quote$<M extends QuoteMode>(
    token: number,
    mode: M,
    options?: SubscribeOptions,
  ): Observable<MarketQuote<M>> {
    return this.track([token], () => this.feed.quote$(token, mode, options));
  }

  /** See {@link MarketFeed.greeks$}. */
  greeks$(tokens: readonly number[], options?: SubscribeOptions): Observable<MarketGreeks> {
    return this.track(tokens, () => this.feed.greeks$(tokens, options));
  }

  /**
   * Completed candles of `token` (see `CandleHub`); a cold start is a `degraded` event of
   * the token on this strategy's {@link health$}.
   */
  candles$(token: number, interval: CandleInterval, options?: CandleOptions): Observable<Candle> {
    const hub = this.candles;
    if (hub === undefined) throw new Error('candles$: no candle hub wired to this market view');
    return this.track([token], () =>
      hub.candles$(token, interval, options, (w) => {
        // Kept (a few) for a health$ subscribed later than the candles.
        if (this.candleWarnings.length < 100) this.candleWarnings.push(w);
        this.candleWarning.next(w);
      }),
    );
  }

  /** How the tokens this strategy asks for are doing now. */
  dataHealth(): DataHealth {
    const byStatus = new Map<HealthStatus, number[]>();
    for (const token of [...this.asked.keys()].sort((a, b) => a - b)) {
      const status = this.feed.tokenHealth?.(token) ?? 'ok';
      byStatus.set(status, [...(byStatus.get(status) ?? []), token]);
    }
    return {
      status: SEVERITY.find((s) => byStatus.has(s)) ?? 'ok',
      rejectedTokens: byStatus.get('rejected') ?? [],
      staleTokens: byStatus.get('stale') ?? [],
    };
  }

  private track<T>(tokens: readonly number[], open: () => Observable<T>): Observable<T> {
    return new Observable<T>((subscriber) => {
      const unique = [...new Set(tokens)];
      const fresh: number[] = [];
      for (const t of unique) {
        const n = this.asked.get(t) ?? 0;
        this.asked.set(t, n + 1);
        if (n === 0) fresh.push(t);
      }
      const sub = open().subscribe(subscriber);
      // After subscribing: the feed knows the token now, and its state may already be bad.
      for (const t of fresh) this.added.next(t);
      return () => {
        sub.unsubscribe();
        for (const t of unique) {
          const n = (this.asked.get(t) ?? 1) - 1;
          if (n === 0) this.asked.delete(t);
          else this.asked.set(t, n);
        }
      };
    });
  }

  private replay(token: number, subscriber: Subscriber<HealthEvent>): void {
    const status = this.feed.tokenHealth?.(token);
    if (status === undefined || status === 'ok') return;
    subscriber.next({ status, at: this.clock.now(), token, reason: 'current state' });
  }
}
