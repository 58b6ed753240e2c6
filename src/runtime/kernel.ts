import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { Logger } from 'pino';
import {
  BehaviorSubject,
  defer,
  interval,
  type Observable,
  Subject,
  type Subscription,
} from 'rxjs';
import { SessionError } from '../api/errors/session-error.ts';
import { Pacer } from '../api/pacing/pacer.ts';
import { DEFAULT_RATE_LIMITS } from '../api/pacing/rate-limits.ts';
import type { Holidays } from '../api/schemas/utilities.ts';
import { type Credentials, TiqsClient } from '../api/tiqs-client.ts';
import { Recorder } from '../backtest/recorder.ts';
import { CalendarStore } from '../calendar/calendar-store.ts';
import { beforeClose$ } from '../calendar/schedules.ts';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import type { Clock } from '../clock/clock.ts';
import { LiveClock } from '../clock/live-clock.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import { formatRupees, parseRupees } from '../domain/money.ts';
import type { Broker } from '../execution/broker.ts';
import { ExecutionEngine, type SessionGate } from '../execution/execution-engine.ts';
import { type Journal, MemoryJournal } from '../execution/journal.ts';
import type { OrderEvent, Position } from '../execution/order-events.ts';
import type { RiskLimits } from '../execution/risk/risk-limits.ts';
import type { ShutdownReport } from '../execution/run-shutdown.ts';
import { SqliteJournal } from '../execution/sqlite-journal.ts';
import { untilAborted } from '../execution/until-aborted.ts';
import { MarketDataBus } from '../market-data/market-data-bus.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';
import {
  type OptionChainSource,
  resolveOptionChain,
} from '../market-data/options/option-chain-resolver.ts';
import type { QuoteSource } from '../market-data/quote-source.ts';
import type { SessionOracle } from '../market-data/session-oracle.ts';
import { StrategyMarket } from '../market-data/strategy-market.ts';
import { buildContext } from '../strategy/build-context.ts';
import { checkIntent, InvalidIntentError } from '../strategy/check-intent.ts';
import { lastAutoIdNumber } from '../strategy/intent-factory.ts';
import type { RoutedIntent } from '../strategy/intents.ts';
import { type LoadedStrategy, loadStrategy } from '../strategy/load-strategy.ts';
import { type EmbeddedSimulator, startEmbeddedSimulator } from './embedded-simulator.ts';
import { logShutdownReport } from './log-shutdown-report.ts';
import { externalMarketClock } from './market-clock.ts';
import { PaperBroker } from './paper-broker.ts';
import { SessionExpiryNotice } from './session-expiry-notice.ts';

/** Reads an access token from a file (its first line); empty when there is no file. */
export async function readTokenFile(path: string | undefined): Promise<string> {
  if (path === undefined) return '';
  const text = await readFile(path, 'utf8');
  return text.split('\n')[0]?.trim() ?? '';
}

/**
 * Where market data, holidays and option chains come from. `TiqsClient` is one; a
 * backtest's replay is another.
 */
export type MarketSource = QuoteSource &
  OptionChainSource & {
    holidays(signal?: AbortSignal): Promise<Holidays>;
    setCredentials?(credentials: Credentials): void;
  };

/** Folder name of a recording that starts at `at`: its UTC instant, file-name safe. */
function recordingFolderName(at: number): string {
  return new Date(at).toISOString().replace(/[:.]/g, '-');
}

/** How often positions are marked and the kill switch checked, market time. */
const RISK_MARK_MS = 5_000;

/** Risk limits of a config: rupees there, paise here. */
export function riskLimitsOf(config: RunnerConfig): RiskLimits {
  const { risk } = config;
  return {
    maxOrderQuantity: risk.maxOrderQuantity,
    maxOrderValue: parseRupees(String(risk.maxOrderValue)),
    maxOpenOrders: risk.maxOpenOrders,
    maxPositionPerInstrument: risk.maxPositionPerInstrument,
    dailyMaxLoss: parseRupees(String(risk.dailyMaxLoss)),
    flattenOnKill: risk.flattenOnKill,
    marketProtectionPercent: risk.marketProtectionPercent,
    maxOrdersPerDay: 3_000,
  };
}

/** Removes a file left by an earlier run and returns its path. */
async function freshFile(path: string): Promise<string> {
  for (const suffix of ['', '-wal', '-shm']) await rm(`${path}${suffix}`, { force: true });
  return path;
}

/** Options of {@link Kernel.create}. */
export interface KernelOptions {
  config: RunnerConfig;
  /** Path of the config file; strategy modules resolve against its project folder. */
  configFile: string;
  logger: Logger;
  /** Override of the market clock (tests). Default: the embedded simulator's, or wall time. */
  clock?: Clock;
  /** Override of the base URL and credentials (tests with their own simulator). */
  endpoint?: { baseUrl: string } & Credentials;
  /**
   * Market data and utilities instead of the HTTP client: a replay in backtests. With a
   * source, nothing is fetched over HTTP and the mode must be `paper`.
   */
  source?: MarketSource;
  /**
   * Market data pushed instead of polled: a backtest's `ReplayMarket`, which publishes
   * each recorded quote at its instant. Default: a `MarketDataBus` polling the source.
   * Like `source`, it needs mode `paper`.
   */
  market?: MarketFeed;
  /** Execution's journal; default SQLite in the state folder (in memory with a `source`). */
  journal?: Journal;
  /**
   * Record everything the market-data source answers into this folder (the `record`
   * command); without it, `recording.enabled` in the config picks a folder per run.
   */
  recordTo?: string;
  /** Fetch implementation for the HTTP client (tests count requests in flight). */
  fetch?: typeof fetch;
}

/** A strategy instance at run time. */
interface RunningStrategy {
  loaded: LoadedStrategy;
  subscription: Subscription | undefined;
  status: 'running' | 'failed' | 'stopped';
}

/**
 * The one kernel: wires clock, calendar, market-data bus, strategies, execution and the
 * broker for a mode, and runs them until {@link stop}. Live and paper differ only in
 * the broker (the HTTP client, or in-process fills); backtests swap the clock and data
 * source too.
 */
export class Kernel {
  private readonly strategies: RunningStrategy[] = [];
  private readonly positions$ = new BehaviorSubject<Position[]>([]);
  private readonly subscriptions: Subscription[] = [];
  private stopping: Promise<ShutdownReport> | undefined;
  private readonly intents = new Subject<RoutedIntent & { at: number }>();
  /** Every intent a running strategy emits, stamped with its strategy and clock time. */
  readonly intents$: Observable<RoutedIntent & { at: number }> = this.intents.asObservable();
  /** Records the source's answers when recording is on (see `src/backtest/recorder.ts`). */
  recorder: Recorder | undefined;

  private constructor(
    readonly config: RunnerConfig,
    readonly clock: Clock,
    readonly client: TiqsClient,
    readonly source: MarketSource,
    readonly calendarStore: CalendarStore,
    readonly bus: MarketFeed,
    readonly broker: Broker,
    readonly engine: ExecutionEngine,
    private readonly logger: Logger,
    private readonly embedded: EmbeddedSimulator | undefined,
    private readonly sessionNotice: SessionExpiryNotice,
  ) {}

  /** Builds every component for the config; nothing runs until {@link start}. */
  static async create(options: KernelOptions): Promise<Kernel> {
    const { config, logger } = options;
    const log = (component: string) => logger.child({ component });
    // Loaded configs carry absolute paths; anything relative is relative to the config's folder.
    const projectDir = dirname(resolve(options.configFile));

    // Strategies first: a bad module or bad params must stop us before anything starts.
    const loaded: LoadedStrategy[] = [];
    for (const s of config.strategies.filter((x) => x.enabled)) {
      loaded.push(await loadStrategy(s.id, s.module, s.params, projectDir));
    }

    let embedded: EmbeddedSimulator | undefined;
    let endpoint: { baseUrl: string } & Credentials;
    let networkClock: Clock = options.clock ?? new LiveClock();
    if (options.endpoint !== undefined) endpoint = options.endpoint;
    else if (config.broker.baseUrl === 'embedded') {
      embedded = await startEmbeddedSimulator(config);
      networkClock = options.clock ?? embedded.networkClock;
      endpoint = { baseUrl: embedded.sim.url, appId: 'sim-app', token: 'sim-token' };
      log('kernel').info(
        {
          url: embedded.sim.url,
          marketTime: new Date(embedded.clock.now()).toISOString(),
          speed: config.broker.sim.speed,
        },
        'embedded simulator started',
      );
    } else {
      endpoint = {
        baseUrl: config.broker.baseUrl,
        appId: config.broker.appId ?? '',
        token: config.broker.token ?? (await readTokenFile(config.broker.tokenFile)),
      };
    }
    // A failure past this point must not leave the embedded simulator listening: the
    // process would never exit.
    try {
      const clock = options.clock ?? embedded?.clock ?? externalMarketClock(config.broker);

      // One pacer for both clients below: together they must stay within the service's limits.
      const pacer = new Pacer(networkClock, DEFAULT_RATE_LIMITS, {
        marginMs: config.broker.pacingMarginMs,
      });
      const clientOptions = {
        ...endpoint,
        clock: networkClock,
        pacer,
        timeoutMs: config.broker.timeoutMs,
        retryAfterMaxMs: config.broker.retryAfterMaxMs,
        throttleRetryDeadlineMs: config.broker.throttleRetryDeadlineMs,
        logger: log('api'),
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
      };
      const client = new TiqsClient(clientOptions);
      // The bus backs off and retries on its own schedule and budget; its client must not
      // retry underneath it. It shares the execution client's pacer.
      const busClient = new TiqsClient({ ...clientOptions, retry: { limit: 0 } });
      const recordDir =
        options.recordTo ??
        (config.recording.enabled
          ? join(resolve(projectDir, config.recording.dir), recordingFolderName(clock.now()))
          : undefined);
      const recorder =
        recordDir === undefined
          ? undefined
          : Recorder.create({ dir: recordDir, clock, gzip: config.recording.gzip });
      // Recording taps the source, so it sees exactly what the bus polls, in every mode.
      const recorded = (s: MarketSource): MarketSource => recorder?.tap(s) ?? s;
      const source: MarketSource = recorded(options.source ?? client);
      if (
        (options.source !== undefined || options.market !== undefined) &&
        config.mode !== 'paper'
      ) {
        throw new Error(
          'a replayed market source needs mode: paper; a live broker cannot trade on replayed data',
        );
      }

      const stateDir = resolve(projectDir, config.state.dir);
      await mkdir(stateDir, { recursive: true });
      const calendarStore = new CalendarStore({
        clock,
        // Waiting for, and retrying, the service is network time, not (rehearsal) market time.
        networkClock,
        fetchHolidays: (signal) => source.holidays(signal),
        serviceName: endpoint.baseUrl,
        path: join(stateDir, 'holidays.json'),
        logger: log('calendar'),
      });

      const sessions: SessionOracle = {
        isOpen: (at) => calendarStore.calendar?.isOpen(at) ?? false,
        nextOpen: (after) => calendarStore.calendar?.nextOpen(after),
      };
      const bus: MarketFeed =
        options.market ??
        new MarketDataBus({
          source: recorded(options.source ?? busClient),
          clock,
          sessions,
          logger: log('bus'),
          intervalMs: config.marketData.intervalMs,
          batchSize: config.marketData.batchSize,
          warmupMs: config.marketData.warmupSeconds * 1_000,
          staleAfterIntervals: config.marketData.staleAfterIntervals,
          quoteRequestsPerSecond: config.marketData.requestsPerSecond,
          greeksIntervalMs: config.marketData.greeksIntervalMs,
          rejectedRetryMs: config.marketData.rejectedRetrySeconds * 1_000,
          // The same jitter margin as the client's pacer: the bus never makes it queue.
          jitterMarginMs: config.broker.pacingMarginMs,
        });

      const broker: Broker =
        config.mode === 'paper'
          ? new PaperBroker({
              clock,
              bus,
              hours: sessions,
              logger: log('paper'),
              latencyMs: config.paper.latencyMs,
              slippageTicks: config.paper.slippageTicks,
            })
          : client;

      // No calendar at all means no trading: the engine denies with the reason.
      const gate = (): SessionGate | undefined => calendarStore.calendar;
      // Live orders are recovered from the journal after a restart. Paper orders live in
      // the in-process paper broker, which a restart empties, so each paper run starts a
      // fresh journal (kept for `tiqs-runner orders` until the next run).
      // A replayed market (backtests, sweeps in parallel) keeps its journal in memory.
      const journal: Journal =
        options.journal ??
        (options.source !== undefined
          ? new MemoryJournal()
          : config.mode === 'live'
            ? new SqliteJournal(join(stateDir, 'journal.sqlite'))
            : new SqliteJournal(await freshFile(join(stateDir, 'paper-journal.sqlite'))));
      const lastPrice = (token: string) => {
        const full = bus.latest(Number(token), 'full')?.quote;
        const ltp = full?.ltp ?? bus.latest(Number(token), 'ltp')?.quote.ltp;
        if (ltp === undefined) return undefined;
        return { ltp, lowerLimit: full?.lowerLimit ?? 0, upperLimit: full?.upperLimit ?? 0 };
      };
      // One line on a refused session, whichever component meets it first.
      const sessionNotice = new SessionExpiryNotice(log('kernel'), {
        tokenFile: config.broker.tokenFile,
      });
      const engine = new ExecutionEngine({
        onSessionRefused: (err) =>
          sessionNotice.refused('execution', {
            operation: err.operation,
            ...(err.status === undefined ? {} : { status: err.status }),
          }),
        broker,
        clock,
        logger: log('execution'),
        sessions: gate,
        trackIntervalMs: config.execution.trackIntervalMs,
        journal,
        quote: lastPrice,
        risk: riskLimitsOf(config),
      });

      const kernel = new Kernel(
        config,
        clock,
        client,
        source,
        calendarStore,
        bus,
        broker,
        engine,
        logger,
        embedded,
        sessionNotice,
      );
      for (const l of loaded)
        kernel.strategies.push({ loaded: l, subscription: undefined, status: 'stopped' });
      kernel.recorder = recorder;
      return kernel;
    } catch (err) {
      await embedded?.sim.close();
      throw err;
    }
  }

  /** Loads the calendar, starts tracking, and starts every strategy. */
  async start(): Promise<void> {
    const log = this.logger.child({ component: 'kernel' });
    const status = await this.calendarStore.start();
    // A stop that came while starting wins: nothing more is started.
    if (this.stopping !== undefined) return;
    const calendar = this.calendarStore.calendar;
    if (calendar === undefined) {
      log.error(
        { status },
        'no trading calendar yet: intents wait until one loads (the service is retried with backoff)',
      );
    }
    this.subscriptions.push(this.engine.events$.subscribe((e) => this.onOrderEvent(e)));
    const recovered = await this.engine.recover();
    if (this.stopping !== undefined) return;
    if (recovered.orders > 0) log.info(recovered, 'recovered orders and fills from the journal');
    // Strategies see the positions the journal holds before their first quote.
    this.positions$.next(this.engine.positions.positions());
    this.engine.start();
    this.subscriptions.push(
      this.bus.health$.subscribe((h) => {
        if (h.status === 'session-expired') {
          // The same token serves orders: execution pauses too, and the notice speaks once.
          if (h.token !== undefined) return;
          this.sessionNotice.refused('market-data', { operation: 'quotes' });
          this.engine.pause(
            new SessionError(`market data: ${h.reason ?? 'credentials refused'}`, {
              operation: 'quotes',
            }),
          );
          return;
        }
        if (h.status !== 'ok') log.warn({ health: h }, 'market data health');
      }),
    );
    const cal =
      calendar ??
      TradingCalendar.fromHolidays(
        { holidays: {}, specialTradingDays: {} },
        { outsideCoverage: 'closed' },
      );
    for (const s of this.strategies) this.startStrategy(s, cal);
    this.scheduleSquareOff(cal);
    this.scheduleSummary();
    this.scheduleRiskMarks();
    if (this.recorder !== undefined) {
      this.subscriptions.push(...this.recorder.attach(this.bus, this.config.recording.instruments));
    }
    log.info(
      {
        mode: this.config.mode,
        strategies: this.strategies.map((s) => s.loaded.id),
        marketTime: new Date(this.clock.now()).toISOString(),
      },
      'bot started',
    );
  }

  /** Replaces the access token everywhere and resumes a paused bot. */
  setCredentials(credentials: Credentials): void {
    this.client.setCredentials(credentials);
    this.bus.setCredentials(credentials);
    this.engine.resume();
    this.sessionNotice.resumed();
  }

  /**
   * Graceful stop under `execution.onShutdown` (see `ExecutionEngine.shutdown`): stop
   * the strategies, settle placements under way, cancel per the policy and verify,
   * close everything, and log what is still open at the broker. `signal` ends the work
   * at the stop's budget. Safe to call more than once.
   */
  stop(reason = 'stop requested', signal?: AbortSignal): Promise<ShutdownReport> {
    this.stopping ??= this.doStop(reason, signal);
    return this.stopping;
  }

  /** Strategy ids with their run status. */
  strategyStatus(): Record<string, RunningStrategy['status']> {
    return Object.fromEntries(this.strategies.map((s) => [s.loaded.id, s.status]));
  }

  private async doStop(reason: string, budget: AbortSignal | undefined): Promise<ShutdownReport> {
    const log = this.logger.child({ component: 'kernel' });
    const began = Date.now();
    const policy = this.config.execution.onShutdown;
    log.info({ reason, policy }, 'stopping');
    for (const s of this.strategies) {
      s.subscription?.unsubscribe();
      if (s.status === 'running') s.status = 'stopped';
    }
    const signal = budget ?? new AbortController().signal;
    const report = await this.engine.shutdown(policy, {
      signal,
      retryMs: Math.min(500, this.config.execution.trackIntervalMs),
    });
    this.engine.close();
    for (const sub of this.subscriptions) sub.unsubscribe();
    this.bus.close();
    this.recorder?.close();
    this.calendarStore.stop();
    if (this.broker instanceof PaperBroker) this.broker.close();
    if (this.embedded !== undefined) await untilAborted(this.embedded.sim.close(), signal);
    this.logPnl(log);
    // Wall time on purpose: the stop's budget is the operator's, not the market's.
    logShutdownReport(log, report, Date.now() - began);
    return report;
  }

  private startStrategy(s: RunningStrategy, calendar: TradingCalendar): void {
    const { id } = s.loaded;
    const log = this.logger.child({ component: 'strategy', strategy: id });
    const fail = (err: unknown) => {
      s.status = 'failed';
      s.subscription?.unsubscribe();
      log.error({ err }, 'strategy failed and was stopped; the others keep running');
    };
    try {
      const ctx = buildContext({
        strategyId: id,
        params: s.loaded.params,
        clock: this.clock,
        calendar,
        calendar$: this.calendarStore.calendar$,
        // Its own view: health$ carries the events of the tokens this strategy asked for.
        market: StrategyMarket.of(this.bus, this.clock, id),
        options: {
          chain$: (request) => defer(() => resolveOptionChain(this.source, this.clock, request)),
        },
        orderEvents$: this.engine.events$,
        positions$: this.positions$,
        logger: this.logger,
        // Automatic ids continue after those the journal remembers (restarts).
        intentSeq: lastAutoIdNumber(this.engine.orders(id).map((o) => o.intentId)),
      });
      s.status = 'running';
      s.subscription = s.loaded.definition.setup(ctx).subscribe({
        next: (emitted: unknown) => {
          if (s.status !== 'running') return;
          const checked = checkIntent(emitted);
          if (!checked.ok) {
            fail(new InvalidIntentError(id, checked.problem));
            return;
          }
          const intent = checked.intent;
          log.info({ intent }, 'intent');
          this.intents.next({ ...intent, strategyId: id, at: this.clock.now() });
          if (intent.kind === 'place' && this.broker instanceof PaperBroker) {
            const { instrument } = intent;
            this.broker.describe(Number(instrument.token), {
              exchange: instrument.exchange,
              symbol: instrument.symbol,
              lotSize: instrument.lotSize ?? 1,
              tick: instrument.tickSize ?? 5,
            });
          }
          void this.engine.submit({ ...intent, strategyId: id });
        },
        error: fail,
        complete: () => log.info('strategy stream completed'),
      });
      // A strategy that failed while subscribing (a bad first emission) is cut off now.
      if ((s.status as RunningStrategy['status']) === 'failed') s.subscription.unsubscribe();
    } catch (err) {
      fail(err);
    }
  }

  private onOrderEvent(e: OrderEvent): void {
    const log = this.logger.child({ component: 'execution', strategy: e.strategyId });
    const { intent: _intent, ...rest } = e as OrderEvent & { intent?: unknown };
    const level = e.type === 'OrderRejected' || e.type === 'OrderDenied' ? 'warn' : 'info';
    log[level]({ event: rest }, e.type);
    if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled') this.publishPositions();
  }

  private publishPositions(): void {
    this.engine.markAndCheck();
    this.positions$.next(this.engine.positions.positions());
  }

  private scheduleSquareOff(calendar: TradingCalendar): void {
    const minutes = this.config.execution.squareOffMinutesBeforeClose;
    if (minutes <= 0) return;
    this.subscriptions.push(
      beforeClose$(this.calendarStore.calendar$ ?? calendar, this.clock, minutes).subscribe(() => {
        const intraday = this.engine
          .orders()
          .filter((o) => o.intent.product === 'I')
          .map((o) => o.strategyId);
        for (const strategyId of new Set(intraday)) {
          this.logger.info(
            { component: 'execution', strategy: strategyId, minutes },
            'squaring off intraday positions before the close',
          );
          void this.engine.submit({
            kind: 'squareOff',
            id: `auto-eod-${this.clock.now()}`,
            strategyId,
            reason: 'intraday square-off before the close',
          });
        }
      }),
    );
  }

  private scheduleSummary(): void {
    const seconds = this.config.logging.summaryIntervalSeconds;
    if (seconds <= 0) return;
    const log = this.logger.child({ component: 'summary' });
    const tick = () => {
      this.publishPositions();
      const stats = this.bus.stats;
      log.info(
        {
          marketTime: new Date(this.clock.now()).toISOString(),
          open: this.calendarStore.calendar?.isOpen(this.clock.now()) ?? false,
          ltp: Object.fromEntries(
            this.bus.quoteTokenList().flatMap((token) => {
              const q = this.bus.latest(token, 'ltp') ?? this.bus.latest(token, 'full');
              return q === undefined ? [] : [[token, formatRupees(q.quote.ltp)]];
            }),
          ),
          health: this.bus.status,
          quoteTokens: stats.quoteTokens,
          quoteRequests: stats.quoteRequests,
          failedRequests: stats.failedRequests,
          rejectedTokens: this.bus.rejectedTokenList?.() ?? [],
          strategies: this.strategyStatus(),
          // A running strategy whose tokens are rejected or stale is not fine: say so.
          strategyData: StrategyMarket.summary(this.bus),
        },
        'market summary',
      );
      this.logPnl(log);
    };
    this.subscriptions.push(interval(seconds * 1_000, this.clock.scheduler).subscribe(tick));
  }

  /**
   * Marks positions and checks the kill switch on its own timer, whatever the logging
   * settings: unrealised losses must stop entries even between fills.
   */
  private scheduleRiskMarks(): void {
    this.subscriptions.push(
      interval(RISK_MARK_MS, this.clock.scheduler).subscribe(() => this.publishPositions()),
    );
    // Intents deferred for want of a calendar go out once one arrives.
    this.subscriptions.push(
      this.calendarStore.calendar$.subscribe(() => this.engine.retryDeferred()),
    );
  }

  private logPnl(log: Logger): void {
    for (const s of this.strategies) {
      const t = this.engine.positions.totals(s.loaded.id);
      const open = this.engine.positions
        .positions(s.loaded.id)
        .filter((p) => p.netQuantity !== 0).length;
      log.info(
        {
          strategy: s.loaded.id,
          realised: formatRupees(t.realised),
          unrealised: formatRupees(t.unrealised),
          openPositions: open,
        },
        'strategy PnL (₹)',
      );
    }
  }
}
