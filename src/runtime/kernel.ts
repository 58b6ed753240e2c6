import { dirname, resolve } from 'node:path';
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
import type { Credentials } from '../api/tiqs-client.ts';
import type { CalendarStore } from '../calendar/calendar-store.ts';
import { beforeClose$ } from '../calendar/schedules.ts';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import type { Clock } from '../clock/clock.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import type { RoutedIntent } from '../domain/intents.ts';
import type { MarketSessions } from '../domain/market-sessions.ts';
import { parseRupees } from '../domain/money.ts';
import type { OrderEvent, Position } from '../domain/order-events.ts';
import type { Broker } from '../execution/broker.ts';
import { ExecutionEngine } from '../execution/execution-engine.ts';
import type { RiskLimits } from '../execution/risk/risk-limits.ts';
import type { ShutdownReport } from '../execution/run-shutdown.ts';
import { untilAborted } from '../execution/until-aborted.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';
import { resolveOptionChain } from '../market-data/options/option-chain-resolver.ts';
import { StrategyMarket } from '../market-data/strategy-market.ts';
import type { Recorder } from '../recording/recorder.ts';
import { buildContext } from '../strategy/build-context.ts';
import { checkIntent, InvalidIntentError } from '../strategy/check-intent.ts';
import { lastAutoIdNumber } from '../strategy/intent-factory.ts';
import { type LoadedStrategy, loadStrategy } from '../strategy/load-strategy.ts';
import { logMarketSummary, logStrategyPnl } from './bot-summary.ts';
import { logShutdownReport } from './log-shutdown-report.ts';
import type { KernelOptions, ModeParts } from './modes/mode-parts.ts';
import { resolveMode } from './modes/resolve-mode.ts';
import { SessionExpiryNotice } from './session-expiry-notice.ts';

export type { MarketSource } from '../market-data/market-source.ts';
export type { KernelOptions } from './modes/mode-parts.ts';
export { readTokenFile } from './read-token-file.ts';

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

/** A strategy instance at run time. */
interface RunningStrategy {
  loaded: LoadedStrategy;
  subscription: Subscription | undefined;
  status: 'running' | 'failed' | 'stopped';
}

/**
 * The one kernel: wires strategies, execution and schedules over the parts of a mode
 * (clock, feed, broker, source, journal; see `modes/resolve-mode.ts`) and runs them
 * until {@link stop}. It never asks which mode built the parts.
 */
export class Kernel {
  private readonly strategies: RunningStrategy[];
  private readonly positions$ = new BehaviorSubject<Position[]>([]);
  private readonly subscriptions: Subscription[] = [];
  private stopping: Promise<ShutdownReport> | undefined;
  private readonly intents = new Subject<RoutedIntent & { at: number }>();
  /** Every intent a running strategy emits, stamped with its strategy and clock time. */
  readonly intents$: Observable<RoutedIntent & { at: number }> = this.intents.asObservable();
  readonly clock: Clock;
  readonly calendarStore: CalendarStore;
  readonly bus: MarketFeed;
  readonly broker: Broker;
  /** Records the source's answers when recording is on (see `src/backtest/recorder.ts`). */
  readonly recorder: Recorder | undefined;

  private constructor(
    readonly config: RunnerConfig,
    private readonly parts: ModeParts,
    readonly engine: ExecutionEngine,
    loaded: readonly LoadedStrategy[],
    private readonly logger: Logger,
    private readonly sessionNotice: SessionExpiryNotice,
  ) {
    this.clock = parts.clock;
    this.calendarStore = parts.calendarStore;
    this.bus = parts.feed;
    this.broker = parts.broker;
    this.recorder = parts.recorder;
    this.strategies = loaded.map((l) => ({
      loaded: l,
      subscription: undefined,
      status: 'stopped',
    }));
  }

  /** Builds every component for the options; nothing runs until {@link start}. */
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
    const parts = await resolveMode({ options, projectDir, log });
    const { clock, feed, calendarStore } = parts;
    // No calendar at all means no trading: the engine denies with the reason.
    const gate = (): MarketSessions | undefined => calendarStore.calendar;
    const lastPrice = (token: string) => {
      const full = feed.latest(Number(token), 'full')?.quote;
      const ltp = full?.ltp ?? feed.latest(Number(token), 'ltp')?.quote.ltp;
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
      broker: parts.broker,
      clock,
      logger: log('execution'),
      sessions: gate,
      trackIntervalMs: config.execution.trackIntervalMs,
      journal: parts.journal,
      quote: lastPrice,
      risk: riskLimitsOf(config),
    });
    return new Kernel(config, parts, engine, loaded, logger, sessionNotice);
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
    await untilAborted(this.parts.close(), signal);
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
          chain$: (request) =>
            defer(() => resolveOptionChain(this.parts.quoteSource, this.clock, request)),
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
          if (intent.kind === 'place') this.parts.describe(intent.instrument);
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
      logMarketSummary(log, {
        clock: this.clock,
        calendarStore: this.calendarStore,
        bus: this.bus,
        strategies: this.strategyStatus(),
      });
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
    const ids = this.strategies.map((st) => st.loaded.id);
    logStrategyPnl(log, this.engine.positions, ids);
  }
}
