import { dirname, resolve } from 'node:path';
import type { Logger } from 'pino';
import { type Observable, Subject, type Subscription } from 'rxjs';
import type { Credentials } from '../api/tiqs-client.ts';
import type { CalendarStore } from '../calendar/calendar-store.ts';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import type { Clock } from '../clock/clock.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import type { OrderIntent, RoutedIntent } from '../domain/intents.ts';
import type { OrderEvent, Position } from '../domain/order-events.ts';
import type { Broker } from '../execution/broker.ts';
import type { ExecutionEngine } from '../execution/execution-engine.ts';
import type { ShutdownReport } from '../execution/run-shutdown.ts';
import { untilAborted } from '../execution/until-aborted.ts';
import { CandleHub } from '../market-data/candles/candle-hub.ts';
import type { InstrumentMasterStore } from '../market-data/instruments/instrument-master-store.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';
import type { Recorder } from '../recording/recorder.ts';
import { loadStrategy } from '../strategy/load-strategy.ts';
import type { PlotPoint } from '../strategy/strategy-context.ts';
import { ControlState } from './bot-controls-state.ts';
import { logStrategyPnl } from './bot-summary.ts';
import { engineOverParts } from './engine-over-parts.ts';
import { instrumentMasterFor, loadInstrumentMaster } from './instrument-master-for.ts';
import { startKernelSchedules } from './kernel-schedules.ts';
import { logShutdownReport } from './log-shutdown-report.ts';
import type { KernelOptions, ModeParts } from './modes/mode-parts.ts';
import { resolveMode } from './modes/resolve-mode.ts';
import { OrderEventLog } from './order-event-log.ts';
import { PositionUpdates } from './position-updates.ts';
import { SessionExpiryNotice } from './session-expiry-notice.ts';
import { StrategyRunner, type StrategyStatus, type StrategyWiring } from './strategy-runner.ts';
import { watchFeedHealth } from './watch-feed-health.ts';

export type { KernelOptions } from './modes/mode-parts.ts';

/** What `Kernel.create` built, handed to the constructor in one piece. */
interface KernelParts {
  config: RunnerConfig;
  parts: ModeParts;
  engine: ExecutionEngine;
  strategies: StrategyRunner[];
  logger: Logger;
  sessionNotice: SessionExpiryNotice;
}

/**
 * The one kernel: wires strategies, execution and schedules over the parts of a mode
 * (clock, feed, broker, source, journal; see `modes/resolve-mode.ts`) and runs them
 * until {@link stop}. It never asks which mode built the parts.
 */
export class Kernel {
  private readonly parts: ModeParts;
  private readonly strategies: readonly StrategyRunner[];
  private readonly logger: Logger;
  private readonly sessionNotice: SessionExpiryNotice;
  private readonly orderLog: OrderEventLog;
  private readonly positions = new PositionUpdates(() => this.engine.positions.positions());
  private readonly subscriptions: Subscription[] = [];
  private stopping: Promise<ShutdownReport> | undefined;
  private readonly intents = new Subject<RoutedIntent & { at: number }>();
  /** Every intent a running strategy emits, stamped with its strategy and clock time. */
  readonly intents$: Observable<RoutedIntent & { at: number }> = this.intents.asObservable();
  private readonly plots = new Subject<PlotPoint>();
  /** Every value a running strategy plots (`ctx.plot`); a backtest keeps them for its report. */
  readonly plots$: Observable<PlotPoint> = this.plots.asObservable();
  readonly config: RunnerConfig;
  readonly engine: ExecutionEngine;
  readonly clock: Clock;
  readonly calendarStore: CalendarStore;
  readonly bus: MarketFeed;
  readonly broker: Broker;
  /** Records the source's answers when recording is on (see `src/recording/recorder.ts`). */
  readonly recorder: Recorder | undefined;
  /**
   * The instrument master (`ctx.instruments`), loaded by {@link start} before strategies'
   * `setup`; until then it misses. `byToken(token)?.exchange` names a token's exchange.
   */
  readonly instruments: InstrumentMasterStore;
  /**
   * Operators' controls kept in the journal: strategies paused by hand (their new
   * entries are dropped until resumed) and the log of who asked what (see `BotControls`).
   */
  readonly controlState: ControlState;

  private constructor(built: KernelParts) {
    this.config = built.config;
    this.parts = built.parts;
    this.engine = built.engine;
    this.strategies = built.strategies;
    this.logger = built.logger;
    this.sessionNotice = built.sessionNotice;
    this.orderLog = new OrderEventLog(this.logger);
    this.clock = this.parts.clock;
    this.calendarStore = this.parts.calendarStore;
    this.bus = this.parts.feed;
    this.broker = this.parts.broker;
    this.recorder = this.parts.recorder;
    this.instruments = instrumentMasterFor(this.parts, this.config, this.logger);
    this.controlState = new ControlState(this.parts.journal, this.logger, () => this.clock.now());
  }

  /** Builds every component for the options; nothing runs until {@link start}. */
  static async create(options: KernelOptions): Promise<Kernel> {
    const { config, logger } = options;
    const log = (component: string) => logger.child({ component });
    // Loaded configs carry absolute paths; anything relative is relative to the config's folder.
    const projectDir = dirname(resolve(options.configFile));
    // Strategies first: a bad module or bad params must stop us before anything starts.
    const strategies: StrategyRunner[] = [];
    for (const s of config.strategies.filter((x) => x.enabled)) {
      strategies.push(new StrategyRunner(await loadStrategy(s.id, s.module, s.params, projectDir)));
    }
    const parts = await resolveMode({ options, projectDir, log });
    // One line on a refused session, whichever component meets it first.
    const sessionNotice = new SessionExpiryNotice(log('kernel'), {
      tokenFile: config.broker.tokenFile,
    });
    const engine = engineOverParts(config, parts, sessionNotice, log('execution'));
    return new Kernel({ config, parts, engine, strategies, logger, sessionNotice });
  }

  /** Loads the calendar, starts tracking, and starts every strategy. */
  async start(): Promise<void> {
    const log = this.logger.child({ component: 'kernel' });
    const status = await this.calendarStore.start();
    // A stop that came while starting wins: nothing more is started.
    if (this.stopping !== undefined) return;
    const calendar = this.calendarStore.calendar;
    // Strategies look instruments up synchronously in `setup`: the master comes first.
    await loadInstrumentMaster(this.instruments, this.parts.quoteSource, this.config, log);
    if (this.stopping !== undefined) return;
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
    this.positions.changed();
    this.engine.start();
    this.subscriptions.push(watchFeedHealth(this.bus, this.engine, this.sessionNotice, log));
    // Until a calendar loads, strategies see every day closed.
    const cal =
      calendar ??
      TradingCalendar.fromHolidays(
        { holidays: {}, specialTradingDays: {} },
        { outsideCoverage: 'closed' },
      );
    const wiring = this.strategyWiring();
    for (const s of this.strategies) s.start(wiring, cal);
    this.subscriptions.push(
      ...startKernelSchedules({
        config: this.config,
        clock: this.clock,
        calendarStore: this.calendarStore,
        feed: this.bus,
        engine: this.engine,
        logger: this.logger,
        mark: () => this.publishPositions(),
        // A strategy paused by hand shows as paused (it runs, but its entries are dropped).
        strategies: () => this.summaryStatus(),
        logPnl: (l) => this.logPnl(l),
        journal: this.parts.journal,
      }),
    );
    if (this.recorder !== undefined) {
      this.subscriptions.push(...this.recorder.attach(this.bus, this.config.recording.instruments));
    }
    log.info(
      {
        mode: this.config.mode,
        strategies: this.strategies.map((s) => s.id),
        marketTime: new Date(this.clock.now()).toISOString(),
      },
      'bot started',
    );
    this.warnPausedByHand(log);
  }

  /** A pause kept from an earlier run is said loudly: otherwise the bot just trades nothing. */
  private warnPausedByHand(log: Logger): void {
    const paused = this.controlState.paused();
    if (paused.length === 0) return;
    const by = paused.map((id) => `${id} (by ${this.controlState.pausedBy(id) ?? 'unknown'})`);
    log.warn(
      { event: 'strategies-paused', paused },
      `strategies paused by an operator (kept from an earlier run): ${by.join(', ')}; resume from the dashboard or /resume`,
    );
  }

  /** {@link strategyStatus} with `paused` for a running strategy paused by hand. */
  summaryStatus(): Record<string, StrategyStatus | 'paused'> {
    return Object.fromEntries(
      this.strategies.map((s) => [
        s.id,
        s.status === 'running' && this.controlState.isPaused(s.id) ? 'paused' : s.status,
      ]),
    );
  }

  /** Replaces the access token everywhere and resumes a paused bot. */
  setCredentials(credentials: Credentials): void {
    this.parts.setCredentials(credentials);
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
  strategyStatus(): Record<string, StrategyStatus> {
    return Object.fromEntries(this.strategies.map((s) => [s.id, s.status]));
  }

  /** Failed strategies' ids with what they failed with (the error's message). */
  strategyFailures(): Record<string, string> {
    return Object.fromEntries(
      this.strategies
        .filter((s) => s.status === 'failed')
        .map((s) => [s.id, s.failure instanceof Error ? s.failure.message : String(s.failure)]),
    );
  }

  /** Positions as the kernel publishes them: after each fill and each periodic mark. */
  get positionUpdates$(): Observable<Position[]> {
    return this.positions.positions$;
  }

  /** Strategy ids with the params they run with: the schema's defaults merged with the config's. */
  strategyParams(): Record<string, unknown> {
    return Object.fromEntries(this.strategies.map((s) => [s.id, s.loaded.params]));
  }

  private async doStop(reason: string, budget: AbortSignal | undefined): Promise<ShutdownReport> {
    const log = this.logger.child({ component: 'kernel' });
    const began = Date.now();
    const policy = this.config.execution.onShutdown;
    log.info({ reason, policy }, 'stopping');
    for (const s of this.strategies) s.stop();
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
    await untilAborted(this.parts.close(), signal);
    this.logPnl(log);
    // Wall time on purpose: the stop's budget is the operator's, not the market's.
    logShutdownReport(log, report, Date.now() - began);
    return report;
  }

  /** What every strategy is wired to: market, options, orders and where intents go. */
  private strategyWiring(): StrategyWiring {
    return {
      clock: this.clock,
      calendar$: this.calendarStore.calendar$,
      feed: this.bus,
      // One candle hub for every strategy: one aggregator per token and interval.
      candles: new CandleHub({
        feed: this.bus,
        clock: this.clock,
        calendar: () => this.calendarStore.calendar,
        ...(this.parts.candleHistory === undefined ? {} : { history: this.parts.candleHistory }),
        exchangeOf: (token) => this.instruments.byToken(token)?.exchange,
        logger: this.logger.child({ component: 'candles' }),
      }),
      quoteSource: this.parts.quoteSource,
      engine: this.engine,
      positions$: this.positions.positions$,
      logger: this.logger,
      instruments: this.instruments,
      route: (intent: OrderIntent, strategyId: string) => {
        // A strategy paused by an operator opens nothing until resumed (exits still go).
        if (!this.controlState.allows(intent, strategyId)) return;
        // Copied with Object.assign and the keys set after, not `{ ...intent, strategyId }`:
        // V8 builds a spread with added keys on a slow path (≈ 5 µs and 470 B an intent
        // against 0.6 µs and 130 B; issue 13). Same keys, same order.
        const recorded = Object.assign({}, intent) as RoutedIntent & { at: number };
        recorded.strategyId = strategyId;
        recorded.at = this.clock.now();
        this.intents.next(recorded);
        if (intent.kind === 'place' || intent.kind === 'bracket')
          this.parts.describe(intent.instrument);
        const routed = Object.assign({}, intent) as RoutedIntent;
        routed.strategyId = strategyId;
        void this.engine.submit(routed);
      },
      plot: (point: PlotPoint) => this.plots.next(point),
    };
  }

  private onOrderEvent(e: OrderEvent): void {
    // One record an event, with the order it belongs to (side, quantity, symbol).
    this.orderLog.log(e);
    // The engine marked positions and checked the kill switch before it published the fill;
    // every change to the books is said at once (PositionUpdates builds from the books).
    if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled') this.positions.changed();
  }

  private publishPositions(): void {
    this.engine.markAndCheck();
    this.positions.changed();
  }

  private logPnl(log: Logger): void {
    logStrategyPnl(
      log,
      this.engine.positions,
      this.strategies.map((s) => s.id),
    );
  }
}
