import type { Logger } from 'pino';
import {
  defer,
  finalize,
  from,
  map,
  Observable,
  type ObservableInput,
  type Subscriber,
} from 'rxjs';
import { SessionError } from '../api/errors/session-error.ts';
import type { Quote } from '../api/schemas/quote.ts';
import type { Greeks } from '../api/schemas/utilities.ts';
import type { Credentials } from '../api/tiqs-client.ts';
import type { Clock } from '../clock/clock.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import type { HealthEvent, HealthStatus, StaleEvent } from './health.ts';
import { HealthTracker } from './health-tracker.ts';
import type { MarketFeed } from './market-feed.ts';
import type { MarketGreeks, MarketQuote } from './market-quote.ts';
import { type FailureVerdict, PollGroup, type PollGroupHost } from './poll-group.ts';
import {
  type PollBatch,
  type PollPlan,
  planGreeksPolls,
  planQuotePolls,
  type QuoteDemand,
  stretchFactor,
} from './poll-plan.ts';
import { maxMode } from './project-quote.ts';
import { publishGreeks } from './publish-greeks.ts';
import { publishQuote } from './publish-quote.ts';
import type { QuoteSource } from './quote-source.ts';
import { RejectIsolator } from './reject-isolator.ts';
import { isContentRejection } from './rejection.ts';
import { quoteSpacingMs, RequestBudget } from './request-budget.ts';
import { seedFrom } from './seed-channel.ts';
import { type GateState, gateAt } from './session-gate.ts';
import { ALWAYS_OPEN, type SessionOracle } from './session-oracle.ts';
import { TokenChannel } from './token-channel.ts';

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
  readonly sessions?: SessionOracle;
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

interface QuoteTokenState {
  /** `${intervalMs}:${mode}` → number of subscriptions. */
  readonly demand: Map<string, { demand: QuoteDemand; count: number }>;
  readonly channels: Partial<Record<QuoteMode, TokenChannel<MarketQuote>>>;
}

interface GreeksTokenState {
  /** intervalMs → number of subscriptions. */
  readonly demand: Map<number, number>;
  readonly channel: TokenChannel<MarketGreeks>;
}

interface PlanState {
  plan: PollPlan;
  factor: number;
}

type Kind = 'quotes' | 'greeks';

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
  private readonly sessions: SessionOracle;
  private readonly logger: Logger;
  private readonly intervalMs: number;
  private readonly greeksIntervalMs: number;
  private readonly batchSize: number;
  private readonly warmupMs: number;
  private readonly staleAfter: number;
  private readonly quoteBudget: RequestBudget;
  private readonly greeksBudget: RequestBudget;
  private readonly health: HealthTracker;
  private readonly quoteTokens = new Map<number, QuoteTokenState>();
  private readonly greeksTokens = new Map<number, GreeksTokenState>();
  private readonly groups: Record<Kind, Map<number, { group: PollGroup; refs: number }>> = {
    quotes: new Map(),
    greeks: new Map(),
  };
  private readonly plans: Record<Kind, PlanState | undefined> = {
    quotes: undefined,
    greeks: undefined,
  };
  private readonly hosts: Record<Kind, PollGroupHost>;
  private readonly isolators: Record<Kind, RejectIsolator>;
  private readonly groupOptions: {
    maxBackoffMs: number;
    requestTimeoutMs: number;
    closedRecheckMs: number;
  };
  private readonly stretchLogged: Record<Kind, number> = { quotes: 1, greeks: 1 };
  private readonly cycleErrors = new Map<string, unknown>();
  private gateOpen = false;
  private gateOpenedAt = Number.NEGATIVE_INFINITY;
  private paused = false;
  private closed = false;
  private counters = {
    quoteRequests: 0,
    greeksRequests: 0,
    failedRequests: 0,
    inFlightRequests: 0,
  };

  /** Overall health first (at once), then every change of the bus or of a token. */
  readonly health$: Observable<HealthEvent>;
  /** Tokens turning stale (no fresh data within K intervals) or fresh again. */
  readonly stale$: Observable<StaleEvent>;

  constructor(options: MarketDataBusOptions) {
    this.source = options.source;
    this.clock = options.clock;
    this.sessions = options.sessions ?? ALWAYS_OPEN;
    this.logger = options.logger;
    this.intervalMs = positive(options.intervalMs ?? 1_000, 'intervalMs');
    this.greeksIntervalMs = positive(options.greeksIntervalMs ?? 5_000, 'greeksIntervalMs');
    this.batchSize = positiveInt(options.batchSize ?? 50, 'batchSize');
    this.warmupMs = Math.max(0, options.warmupMs ?? 60_000);
    this.staleAfter = positive(options.staleAfterIntervals ?? 3, 'staleAfterIntervals');
    // Evenly spaced sends, never a burst: see RequestBudget for why a window is not enough.
    this.quoteBudget = new RequestBudget(
      quoteSpacingMs({
        perSecond: positive(options.quoteRequestsPerSecond ?? 9, 'quoteRequestsPerSecond'),
        serviceLimit: positive(options.serviceQuoteLimitPerSecond ?? 10, 'serviceQuoteLimit'),
        jitterMarginMs: Math.max(0, options.jitterMarginMs ?? 250),
      }),
    );
    this.greeksBudget = new RequestBudget(
      Math.ceil(1_000 / positive(options.greeksRequestsPerSecond ?? 10, 'greeksRequestsPerSecond')),
    );
    this.groupOptions = {
      maxBackoffMs: positive(options.maxBackoffMs ?? 30_000, 'maxBackoffMs'),
      requestTimeoutMs: positive(options.requestTimeoutMs ?? 15_000, 'requestTimeoutMs'),
      closedRecheckMs: positive(options.closedRecheckMs ?? 3_600_000, 'closedRecheckMs'),
    };
    this.health = new HealthTracker(this.logger, this.clock.now());
    this.health$ = this.health.health$;
    this.stale$ = this.health.stale$;
    this.hosts = { quotes: this.host('quotes'), greeks: this.host('greeks') };
    const retryMs = positive(options.rejectedRetryMs ?? 300_000, 'rejectedRetryMs');
    this.isolators = {
      quotes: this.isolator('quotes', retryMs),
      greeks: this.isolator('greeks', retryMs),
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
    const unique = uniqueTokens(tokens);
    return new Observable<MarketQuote<M>>((subscriber) => {
      if (this.closed) {
        subscriber.complete();
        return undefined;
      }
      const sub = subscriber as unknown as Subscriber<MarketQuote>;
      for (const token of unique) this.addQuoteDemand(token, intervalMs, mode, sub);
      this.addRef('quotes', intervalMs);
      return () => {
        if (this.closed) return;
        for (const token of unique) this.removeQuoteDemand(token, intervalMs, mode, sub);
        this.removeRef('quotes', intervalMs);
      };
    });
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
    const unique = uniqueTokens(tokens);
    return new Observable<MarketGreeks>((subscriber) => {
      if (this.closed) {
        subscriber.complete();
        return undefined;
      }
      for (const token of unique) this.addGreeksDemand(token, intervalMs, subscriber);
      this.addRef('greeks', intervalMs);
      return () => {
        if (this.closed) return;
        for (const token of unique) this.removeGreeksDemand(token, intervalMs, subscriber);
        this.removeRef('greeks', intervalMs);
      };
    });
  }

  /** The cached quote of a subscribed token in `mode`, if one has arrived. */
  latest<M extends QuoteMode>(token: number, mode: M): MarketQuote<M> | undefined {
    return this.quoteTokens.get(token)?.channels[mode]?.last as MarketQuote<M> | undefined;
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
    if (this.greeksTokens.has(token) && this.isolators.greeks.isSetAside(token)) {
      return status === undefined || status === 'ok' ? 'rejected' : status;
    }
    return status ?? (this.greeksTokens.has(token) ? 'ok' : undefined);
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
    return [...this.quoteTokens.keys()].sort((a, b) => a - b);
  }

  /**
   * Interval at which a subscription asking for `intervalMs` is actually polled now:
   * stretched when the plan would exceed the budget.
   */
  effectiveIntervalMs(intervalMs = this.intervalMs, kind: Kind = 'quotes'): number {
    return intervalMs * this.planOf(kind).factor;
  }

  /** Counters, for tests, benchmarks and dashboards. */
  get stats(): MarketDataBusStats {
    return {
      ...this.counters,
      quoteTokens: this.quoteTokens.size,
      greeksTokens: this.greeksTokens.size,
      rejectedTokens: this.rejectedTokenList().length,
      pollGroups: this.groups.quotes.size + this.groups.greeks.size,
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
    if (this.closed || !this.paused) return;
    this.paused = false;
    this.health.resumed(this.clock.now());
    for (const kind of ['quotes', 'greeks'] as const) {
      for (const { group } of this.groups[kind].values()) group.start();
    }
  }

  /** Stops every loop and completes every stream. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const kind of ['quotes', 'greeks'] as const) {
      for (const { group } of this.groups[kind].values()) group.stop();
      this.groups[kind].clear();
      this.isolators[kind].clear();
    }
    for (const state of this.quoteTokens.values()) {
      for (const ch of Object.values(state.channels)) ch.complete();
    }
    for (const state of this.greeksTokens.values()) state.channel.complete();
    this.quoteTokens.clear();
    this.greeksTokens.clear();
    this.health.complete();
  }

  // --- demand -------------------------------------------------------------------

  private addQuoteDemand(
    token: number,
    intervalMs: number,
    mode: QuoteMode,
    subscriber: Subscriber<MarketQuote>,
  ): void {
    let state = this.quoteTokens.get(token);
    if (state === undefined) {
      state = { demand: new Map(), channels: {} };
      this.quoteTokens.set(token, state);
      this.health.track(token, this.clock.now());
    }
    const key = `${intervalMs}:${mode}`;
    const entry = state.demand.get(key);
    if (entry === undefined) state.demand.set(key, { demand: { intervalMs, mode }, count: 1 });
    else entry.count += 1;
    let channel = state.channels[mode];
    if (channel === undefined) {
      channel = new TokenChannel(seedFrom(state.channels, mode));
      state.channels[mode] = channel;
    }
    this.plans.quotes = undefined;
    channel.add(subscriber);
  }

  private removeQuoteDemand(
    token: number,
    intervalMs: number,
    mode: QuoteMode,
    subscriber: Subscriber<MarketQuote>,
  ): void {
    const state = this.quoteTokens.get(token);
    if (state === undefined) return;
    const key = `${intervalMs}:${mode}`;
    const entry = state.demand.get(key);
    if (entry !== undefined && --entry.count === 0) state.demand.delete(key);
    const channel = state.channels[mode];
    channel?.remove(subscriber);
    if (channel !== undefined && channel.size === 0) delete state.channels[mode];
    if (state.demand.size === 0) {
      this.quoteTokens.delete(token);
      this.isolators.quotes.forget(token);
      this.health.untrack(token, this.clock.now());
    }
    this.plans.quotes = undefined;
  }

  private addGreeksDemand(
    token: number,
    intervalMs: number,
    subscriber: Subscriber<MarketGreeks>,
  ): void {
    let state = this.greeksTokens.get(token);
    if (state === undefined) {
      state = { demand: new Map(), channel: new TokenChannel() };
      this.greeksTokens.set(token, state);
    }
    state.demand.set(intervalMs, (state.demand.get(intervalMs) ?? 0) + 1);
    this.plans.greeks = undefined;
    state.channel.add(subscriber);
  }

  private removeGreeksDemand(
    token: number,
    intervalMs: number,
    subscriber: Subscriber<MarketGreeks>,
  ): void {
    const state = this.greeksTokens.get(token);
    if (state === undefined) return;
    const n = (state.demand.get(intervalMs) ?? 1) - 1;
    if (n === 0) state.demand.delete(intervalMs);
    else state.demand.set(intervalMs, n);
    state.channel.remove(subscriber);
    if (state.demand.size === 0) {
      this.greeksTokens.delete(token);
      this.isolators.greeks.forget(token);
      this.health.forgetGreeks(token, this.clock.now());
    }
    this.plans.greeks = undefined;
  }

  private addRef(kind: Kind, intervalMs: number): void {
    const groups = this.groups[kind];
    const entry = groups.get(intervalMs);
    if (entry !== undefined) {
      entry.refs += 1;
      return;
    }
    const group = new PollGroup({
      intervalMs,
      clock: this.clock,
      host: this.hosts[kind],
      budget: kind === 'quotes' ? this.quoteBudget : this.greeksBudget,
      ...this.groupOptions,
    });
    groups.set(intervalMs, { group, refs: 1 });
    if (!this.paused) group.start();
  }

  private removeRef(kind: Kind, intervalMs: number): void {
    const groups = this.groups[kind];
    const entry = groups.get(intervalMs);
    if (entry === undefined) return;
    entry.refs -= 1;
    if (entry.refs > 0) return;
    entry.group.stop();
    groups.delete(intervalMs);
    this.health.dropGroup(`${kind}@${intervalMs}ms`, this.clock.now());
  }

  // --- planning -----------------------------------------------------------------

  private planOf(kind: Kind): PlanState {
    const cached = this.plans[kind];
    if (cached !== undefined) return cached;
    const plan =
      kind === 'quotes'
        ? planQuotePolls(
            mapValues(this.quoteTokens, (s) => [...s.demand.values()].map((e) => e.demand)),
            this.batchSize,
            this.isolators.quotes.held,
          )
        : planGreeksPolls(
            mapValues(this.greeksTokens, (s) => s.demand.keys()),
            this.batchSize,
            this.isolators.greeks.held,
          );
    const budget = kind === 'quotes' ? this.quoteBudget : this.greeksBudget;
    const factor = stretchFactor(
      [...plan.batches].map(([intervalMs, batches]) => ({ intervalMs, batches: batches.length })),
      budget.perSecond,
    );
    this.noteStretch(kind, factor, plan, budget.perSecond);
    const state = { plan, factor };
    this.plans[kind] = state;
    return state;
  }

  /** One warning when the plan starts to stretch (or stretches differently), not per poll. */
  private noteStretch(kind: Kind, factor: number, plan: PollPlan, perSecond: number): void {
    const before = this.stretchLogged[kind];
    if (Math.abs(factor - before) < 1e-9) return;
    this.stretchLogged[kind] = factor;
    const intervals = [...plan.batches].map(([intervalMs, batches]) => ({
      intervalMs,
      batches: batches.length,
      effectiveIntervalMs: Math.round(intervalMs * factor),
    }));
    if (factor > 1) {
      this.logger.warn(
        { kind, budgetPerSecond: perSecond, factor, intervals },
        `${kind} polls need more than ${perSecond} requests/s; intervals stretched ×${factor.toFixed(2)}`,
      );
    } else {
      this.logger.info(
        { kind, intervals },
        `${kind} polls fit the budget again; intervals as configured`,
      );
    }
  }

  // --- poll loop callbacks --------------------------------------------------------

  private host(kind: Kind): PollGroupHost {
    return {
      batches: (intervalMs) => this.planOf(kind).plan.batches.get(intervalMs) ?? [],
      effectiveIntervalMs: (intervalMs) => intervalMs * this.planOf(kind).factor,
      gate: (now) => this.gate(now),
      fetch: (batch, signal) => this.fetch(kind, batch, signal),
      onAnswer: (_intervalMs, batch, data, receivedAt) =>
        kind === 'quotes'
          ? this.ingestQuotes(batch, data as readonly Quote[], receivedAt)
          : this.ingestGreeks(batch, data as readonly Greeks[], receivedAt),
      onFailure: (intervalMs, batch, error, failures) =>
        this.onFailure(kind, intervalMs, batch, error, failures),
      onCycle: (intervalMs, ok) => {
        const key = `${kind}@${intervalMs}ms`;
        this.health.cycle(key, ok, this.clock.now(), this.cycleErrors.get(key));
        this.cycleErrors.delete(key);
      },
      onHeartbeat: (intervalMs, now) => {
        this.isolators[kind].tick();
        if (kind !== 'quotes') return;
        const { plan, factor } = this.planOf(kind);
        const tokens = plan.tokensByInterval.get(intervalMs);
        if (tokens === undefined) return;
        this.health.sweep(tokens, now, this.staleAfter * intervalMs * factor, this.gateOpenedAt);
      },
    };
  }

  private gate(now: number): GateState {
    const state = gateAt(this.sessions, now, this.warmupMs);
    if (state.active && !this.gateOpen) this.gateOpenedAt = now;
    if (state.active !== this.gateOpen) {
      this.gateOpen = state.active;
      this.logger.info(
        state.active ? { at: now } : { at: now, wakeAt: state.wakeAt },
        state.active ? 'session gate open: polling' : 'session gate closed: polling sleeps',
      );
    }
    return state;
  }

  private isolator(kind: Kind, retryMs: number): RejectIsolator {
    const host = this.hosts[kind];
    const interval = kind === 'quotes' ? this.intervalMs : this.greeksIntervalMs;
    return new RejectIsolator({
      clock: this.clock,
      logger: this.logger.child({ isolate: kind }),
      budget: kind === 'quotes' ? this.quoteBudget : this.greeksBudget,
      // About one interval: suspects must not wait out a regular poll's time-out.
      probeTimeoutMs: Math.min(this.groupOptions.requestTimeoutMs, interval),
      retryMs,
      transientRetryMs: interval,
      wanted: (token) => (kind === 'quotes' ? this.quoteTokens : this.greeksTokens).has(token),
      modeFor: (tokens) => (kind === 'quotes' ? this.richestMode(tokens) : undefined),
      active: (now) =>
        !this.paused && !this.closed && gateAt(this.sessions, now, this.warmupMs).active,
      fetch: (batch, signal) => host.fetch(batch, signal),
      onAnswer: (batch, data, receivedAt) => host.onAnswer(0, batch, data, receivedAt),
      onSessionRefused: (error) => {
        this.counters.failedRequests += 1;
        this.pause(this.clock.now(), error);
      },
      onHeldChanged: () => {
        this.plans[kind] = undefined;
      },
      onSetAside: (token, reason, at) => this.health.rejected(token, at, reason, kind),
      onRestored: (token, at) => this.health.restored(token, at, kind),
    });
  }

  /** The richest mode anyone wants any of `tokens` in, at any interval. */
  private richestMode(tokens: readonly number[]): QuoteMode {
    let mode: QuoteMode = 'ltp';
    for (const token of tokens) {
      for (const { demand } of this.quoteTokens.get(token)?.demand.values() ?? []) {
        mode = maxMode(mode, demand.mode);
      }
    }
    return mode;
  }

  private fetch(
    kind: Kind,
    batch: PollBatch,
    signal: AbortSignal,
  ): ObservableInput<readonly unknown[]> {
    return defer(() => {
      let answer: Observable<readonly unknown[]>;
      if (kind === 'quotes') {
        this.counters.quoteRequests += 1;
        answer = from(this.source.quotes(batch.mode ?? 'ltp', batch.tokens, signal));
      } else {
        this.counters.greeksRequests += 1;
        answer = from(this.source.greeks(batch.tokens, signal)).pipe(
          map((data) => {
            // Greeks carry no token; only a positional answer of the right length is usable.
            if (data.length !== batch.tokens.length) {
              throw new Error(
                `greeks: asked for ${batch.tokens.length} tokens, got ${data.length}`,
              );
            }
            return data;
          }),
        );
      }
      // Counted once the request exists: a source that throws at once sent nothing.
      this.counters.inFlightRequests += 1;
      return answer.pipe(finalize(() => (this.counters.inFlightRequests -= 1)));
    });
  }

  private onFailure(
    kind: Kind,
    intervalMs: number,
    batch: PollBatch,
    error: unknown,
    failures: number,
  ): FailureVerdict {
    this.counters.failedRequests += 1;
    const now = this.clock.now();
    if (isSessionError(error)) {
      this.pause(now, error);
      return 'pause';
    }
    if (isContentRejection(error)) {
      // Not the service's trouble but one of the tokens': find it, keep the rest flowing.
      this.isolators[kind].rejected(batch, error);
      return 'isolated';
    }
    const key = `${kind}@${intervalMs}ms`;
    if (!this.cycleErrors.has(key)) this.cycleErrors.set(key, error);
    this.logger.debug(
      { group: key, failures, tokens: batch.tokens.length, err: errorName(error) },
      'poll failed',
    );
    if (kind === 'quotes')
      this.health.failed(batch.tokens, now, `poll failed: ${errorName(error)}`);
    return 'retry';
  }

  private pause(now: number, error: unknown): void {
    if (this.paused) return;
    this.paused = true;
    for (const kind of ['quotes', 'greeks'] as const) {
      for (const { group } of this.groups[kind].values()) group.stop();
      this.isolators[kind].stop();
    }
    this.cycleErrors.clear();
    this.health.sessionExpired(now, error);
  }

  private ingestQuotes(batch: PollBatch, data: readonly Quote[], receivedAt: number): void {
    const mode = batch.mode ?? 'ltp';
    for (const quote of data) {
      const state = this.quoteTokens.get(quote.token);
      if (state === undefined) continue;
      this.health.fresh(quote.token, receivedAt);
      publishQuote(state.channels, mode, quote, receivedAt);
    }
  }

  private ingestGreeks(batch: PollBatch, data: readonly Greeks[], receivedAt: number): void {
    batch.tokens.forEach((token, i) => {
      const greeks = data[i];
      const state = this.greeksTokens.get(token);
      if (greeks === undefined || state === undefined) return;
      publishGreeks(state.channel, { token, greeks, receivedAt });
    });
  }
}

function isSessionError(error: unknown): boolean {
  if (error instanceof SessionError) return true;
  const status = (error as { status?: unknown } | undefined)?.status;
  return status === 401 || status === 403;
}

function errorName(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function uniqueTokens(tokens: readonly number[]): number[] {
  for (const t of tokens) {
    if (!(Number.isSafeInteger(t) && t >= 0)) throw new RangeError(`not an instrument token: ${t}`);
  }
  return [...new Set(tokens)];
}

function positive(value: number, what: string): number {
  if (!(Number.isFinite(value) && value > 0))
    throw new RangeError(`${what} must be positive: ${value}`);
  return value;
}

function positiveInt(value: number, what: string): number {
  if (!(Number.isInteger(value) && value > 0)) {
    throw new RangeError(`${what} must be a positive integer: ${value}`);
  }
  return value;
}

function mapValues<K, V, W>(map: ReadonlyMap<K, V>, f: (v: V) => W): Map<K, W> {
  const out = new Map<K, W>();
  for (const [k, v] of map) out.set(k, f(v));
  return out;
}
