import type { Logger } from 'pino';
import type { Observable } from 'rxjs';
import type { Credentials } from '../api/tiqs-client.ts';
import type { Clock } from '../clock/clock.ts';
import { ALWAYS_OPEN } from '../domain/market-sessions.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import { fetchBatch, newRequestCounters } from './bus-counters.ts';
import { BusFailures } from './bus-failures.ts';
import {
  type MarketDataBusOptions,
  type MarketDataBusStats,
  positive,
  positiveInt,
  type SubscribeOptions,
  uniqueTokens,
} from './bus-options.ts';
import { type BusParts, pollHost, rejectIsolator } from './bus-wiring.ts';
import { GateWatch } from './gate-watch.ts';
import type { HealthEvent, HealthStatus, StaleEvent } from './health.ts';
import { HealthTracker } from './health-tracker.ts';
import { Ingest } from './ingest.ts';
import type { MarketFeed } from './market-feed.ts';
import type { MarketGreeks, MarketQuote } from './market-quote.ts';
import type { PollGroupHost } from './poll-group.ts';
import { PollGroups } from './poll-groups.ts';
import { PollPlanner } from './poll-planner.ts';
import { type DemandKind, TokenDemand } from './quote-demand.ts';
import type { QuoteSource } from './quote-source.ts';
import type { RejectIsolator } from './reject-isolator.ts';
import { quoteSpacingMs, RequestBudget } from './request-budget.ts';

export type { MarketDataBusOptions, MarketDataBusStats, SubscribeOptions } from './bus-options.ts';

const KINDS = ['quotes', 'greeks'] as const;

/**
 * The market-data bus: turns the quote and greeks operations into shared, cached,
 * session-aware streams within the service's rate budget.
 *
 * - One poll loop per interval, started by its first subscriber and stopped with its
 *   last; tokens of all subscribers are merged, deduplicated and packed into the fewest
 *   batches, each polled in the richest mode anyone wants (full ⊇ ohlcv ⊇ ltp), or
 *   richer where riding along saves a request, and projected down for the rest.
 * - Requests of all loops (and of the isolation below) share one budget that spaces
 *   sends evenly; when the plan cannot fit it, every interval stretches by the same
 *   factor and one warning says so.
 * - A batch the service refuses for its content is not retried as it is: the tokens to
 *   blame are found ({@link RejectIsolator}), set aside (health `rejected`) and asked
 *   for alone every `rejectedRetryMs`; the rest are polled again the next cycle.
 * - Streams never error and never complete (until {@link close}); failures show up as
 *   {@link HealthEvent}s, and the loop retries with backoff.
 * - Polling runs only within sessions (plus `warmupMs` before an open) and pauses on a
 *   refused session until {@link setCredentials} or {@link resume}.
 *
 * @example
 * ```ts
 * const bus = new MarketDataBus({ source: client, clock, sessions: calendar, logger });
 * bus.quote$(26000, 'ltp').subscribe((q) => console.log(q.quote.ltp));
 * bus.health$.subscribe((e) => e.status !== 'ok' && logger.warn(e, 'market data'));
 * ```
 */
export class MarketDataBus implements MarketFeed {
  private readonly source: QuoteSource;
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly greeksIntervalMs: number;
  private readonly budgets: Record<DemandKind, RequestBudget>;
  private readonly health: HealthTracker;
  private readonly demand: TokenDemand;
  private readonly planner: PollPlanner;
  private readonly groups: PollGroups;
  private readonly failures: BusFailures;
  private readonly hosts: Record<DemandKind, PollGroupHost>;
  private readonly isolators: Record<DemandKind, RejectIsolator>;
  private readonly counters = newRequestCounters();
  private closed = false;

  /** Overall health first (at once), then every change of the bus or of a token. */
  readonly health$: Observable<HealthEvent>;
  /** Tokens turning stale (no fresh data within K intervals) or fresh again. */
  readonly stale$: Observable<StaleEvent>;

  constructor(options: MarketDataBusOptions) {
    this.source = options.source;
    this.clock = options.clock;
    const sessions = options.sessions ?? ALWAYS_OPEN;
    const logger: Logger = options.logger;
    this.intervalMs = positive(options.intervalMs ?? 1_000, 'intervalMs');
    this.greeksIntervalMs = positive(options.greeksIntervalMs ?? 5_000, 'greeksIntervalMs');
    const batchSize = positiveInt(options.batchSize ?? 50, 'batchSize');
    const warmupMs = Math.max(0, options.warmupMs ?? 60_000);
    const staleAfter = positive(options.staleAfterIntervals ?? 3, 'staleAfterIntervals');
    // Evenly spaced sends, never a burst: see RequestBudget for why a window is not enough.
    this.budgets = {
      quotes: new RequestBudget(
        quoteSpacingMs({
          perSecond: positive(options.quoteRequestsPerSecond ?? 9, 'quoteRequestsPerSecond'),
          serviceLimit: positive(options.serviceQuoteLimitPerSecond ?? 10, 'serviceQuoteLimit'),
          jitterMarginMs: Math.max(0, options.jitterMarginMs ?? 250),
        }),
      ),
      greeks: new RequestBudget(
        Math.ceil(
          1_000 / positive(options.greeksRequestsPerSecond ?? 10, 'greeksRequestsPerSecond'),
        ),
      ),
    };
    const timing = {
      maxBackoffMs: positive(options.maxBackoffMs ?? 30_000, 'maxBackoffMs'),
      requestTimeoutMs: positive(options.requestTimeoutMs ?? 15_000, 'requestTimeoutMs'),
      closedRecheckMs: positive(options.closedRecheckMs ?? 3_600_000, 'closedRecheckMs'),
    };
    const clock = this.clock;
    const health = new HealthTracker(logger, clock.now());
    this.health = health;
    this.health$ = health.health$;
    this.stale$ = health.stale$;
    const budget = (kind: DemandKind): RequestBudget => this.budgets[kind];
    const isolator = (kind: DemandKind): RejectIsolator => this.isolators[kind];
    this.demand = new TokenDemand({
      quoteTokenAdded: (token) => health.track(token, clock.now()),
      quoteTokenDropped: (token) => {
        this.isolators.quotes.forget(token);
        health.untrack(token, clock.now());
      },
      greeksTokenDropped: (token) => {
        this.isolators.greeks.forget(token);
        health.forgetGreeks(token, clock.now());
      },
      changed: (kind) => this.planner.invalidate(kind),
      closed: () => this.closed,
      addRef: (kind, intervalMs) => this.groups.addRef(kind, intervalMs),
      removeRef: (kind, intervalMs) => this.groups.removeRef(kind, intervalMs),
    });
    this.planner = new PollPlanner({ demand: this.demand, batchSize, logger, budget, isolator });
    this.groups = new PollGroups({
      clock,
      health,
      timing,
      budget,
      host: (kind) => this.hosts[kind],
      paused: () => this.failures.paused,
    });
    this.failures = new BusFailures({
      clock,
      logger,
      health,
      counters: this.counters,
      groups: this.groups,
      isolator,
    });
    const parts: BusParts = {
      clock,
      logger,
      health,
      demand: this.demand,
      planner: this.planner,
      gate: new GateWatch(sessions, warmupMs, logger),
      ingest: new Ingest(this.demand, health, options.tickObserver),
      failures: this.failures,
      isolator,
      budget,
      fetch: (kind, batch, signal) => fetchBatch(this.source, this.counters, kind, batch, signal),
      staleAfter,
      closed: () => this.closed,
    };
    this.hosts = { quotes: pollHost('quotes', parts), greeks: pollHost('greeks', parts) };
    const retryMs = positive(options.rejectedRetryMs ?? 300_000, 'rejectedRetryMs');
    const { requestTimeoutMs } = timing;
    this.isolators = {
      quotes: rejectIsolator('quotes', this.hosts.quotes, parts, {
        intervalMs: this.intervalMs,
        requestTimeoutMs,
        retryMs,
      }),
      greeks: rejectIsolator('greeks', this.hosts.greeks, parts, {
        intervalMs: this.greeksIntervalMs,
        requestTimeoutMs,
        retryMs,
      }),
    };
  }

  // --- subscriptions ------------------------------------------------------------

  /**
   * Quotes of `tokens` in `mode`: the cached quote of each token at once (if any), then
   * each change. Never errors; completes only when the bus is closed.
   */
  quotes$<M extends QuoteMode>(
    tokens: readonly number[],
    mode: M,
    options: SubscribeOptions = {},
  ): Observable<MarketQuote<M>> {
    const intervalMs = positive(options.intervalMs ?? this.intervalMs, 'intervalMs');
    return this.demand.quoteStream(uniqueTokens(tokens), intervalMs, mode);
  }

  /** Quotes of one token; see {@link quotes$}. */
  quote$<M extends QuoteMode>(
    token: number,
    mode: M,
    options: SubscribeOptions = {},
  ): Observable<MarketQuote<M>> {
    return this.quotes$([token], mode, options);
  }

  /**
   * Greeks of option `tokens`: the cached value at once (if any), then each change;
   * polled every `greeksIntervalMs` unless the subscription asks otherwise. Not counted
   * against the quote budget (the service counts greeks as another class).
   */
  greeks$(tokens: readonly number[], options: SubscribeOptions = {}): Observable<MarketGreeks> {
    const intervalMs = positive(options.intervalMs ?? this.greeksIntervalMs, 'intervalMs');
    return this.demand.greeksStream(uniqueTokens(tokens), intervalMs);
  }

  /** The cached quote of a subscribed token in `mode`, if one has arrived. */
  latest<M extends QuoteMode>(token: number, mode: M): MarketQuote<M> | undefined {
    return this.demand.latest(token, mode);
  }

  // --- health -------------------------------------------------------------------

  /** Overall health now. */
  get status(): HealthStatus {
    return this.health.status;
  }

  /**
   * Health of a subscribed token; undefined for tokens nobody subscribes to. `rejected`
   * when the service rejects it and it is set aside (quotes or greeks).
   */
  tokenHealth(token: number): HealthStatus | undefined {
    const status = this.health.statusOf(token);
    if (this.demand.greeksTokens.has(token) && this.isolators.greeks.isSetAside(token)) {
      return status === undefined || status === 'ok' ? 'rejected' : status;
    }
    return status ?? (this.demand.greeksTokens.has(token) ? 'ok' : undefined);
  }

  /** Tokens the service rejects, set aside and retried alone now and then, ascending. */
  rejectedTokenList(): number[] {
    const all = new Set([...this.isolators.quotes.setAside(), ...this.isolators.greeks.setAside()]);
    return [...all].sort((a, b) => a - b);
  }

  /** True when a subscribed token has had no fresh data within K intervals. */
  isStale(token: number): boolean {
    return this.health.isStale(token);
  }

  /** When fresh data for a subscribed token last arrived (epoch ms). */
  lastFreshAt(token: number): number | undefined {
    return this.health.lastFreshAt(token);
  }

  /** Tokens with at least one quote subscriber, ascending. */
  quoteTokenList(): number[] {
    return [...this.demand.quoteTokens.keys()].sort((a, b) => a - b);
  }

  /**
   * Interval at which a subscription asking for `intervalMs` is actually polled now:
   * stretched when the plan would exceed the budget.
   */
  effectiveIntervalMs(intervalMs = this.intervalMs, kind: DemandKind = 'quotes'): number {
    return intervalMs * this.planner.planOf(kind).factor;
  }

  /** Counters, for tests, benchmarks and dashboards. */
  get stats(): MarketDataBusStats {
    return {
      ...this.counters,
      quoteTokens: this.demand.quoteTokens.size,
      greeksTokens: this.demand.greeksTokens.size,
      rejectedTokens: this.rejectedTokenList().length,
      pollGroups: this.groups.size,
    };
  }

  // --- lifecycle ----------------------------------------------------------------

  /** Hands new credentials to the source and resumes polling. */
  setCredentials(credentials: Credentials): void {
    this.source.setCredentials?.(credentials);
    this.resume();
  }

  /** Resumes polling after a refused session (no-op otherwise). */
  resume(): void {
    if (this.closed) return;
    this.failures.resume();
  }

  /** Stops every loop and completes every stream. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const kind of KINDS) {
      this.groups.clear(kind);
      this.isolators[kind].clear();
    }
    this.demand.completeAll();
    this.health.complete();
  }
}
