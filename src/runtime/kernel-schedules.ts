import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import type { CalendarStore } from '../calendar/calendar-store.ts';
import { beforeClose$ } from '../calendar/schedules.ts';
import type { Clock } from '../clock/clock.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import type { ExecutionEngine } from '../execution/execution-engine.ts';
import type { Journal } from '../execution/journal.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';
import { logMarketSummary } from './bot-summary.ts';
import { rememberLastPrices } from './last-prices.ts';
import { sessionTicks$ } from './session-ticks.ts';
import type { StrategyStatus } from './strategy-runner.ts';

/** How often positions are marked and the kill switch checked while a session is open. */
const RISK_MARK_MS = 5_000;

/** What the kernel's timers act on. */
export interface ScheduleDeps {
  config: RunnerConfig;
  clock: Clock;
  calendarStore: CalendarStore;
  feed: MarketFeed;
  engine: ExecutionEngine;
  logger: Logger;
  /** Marks positions, checks the kill switch and republishes positions. */
  mark(): void;
  /** Strategy ids with their run status. */
  strategies(): Record<string, StrategyStatus | 'paused'>;
  /** Logs each strategy's PnL. */
  logPnl(log: Logger): void;
  /** Where the summary leaves the last prices seen, for `tiqs-runner positions`. */
  journal?: Pick<Journal, 'getMeta' | 'setMeta'>;
}

/** Squares off every strategy with intraday orders `minutes` before each close. */
function squareOffBeforeClose(deps: ScheduleDeps): Subscription[] {
  const { engine, clock, logger } = deps;
  const minutes = deps.config.execution.squareOffMinutesBeforeClose;
  if (minutes <= 0) return [];
  const close$ = beforeClose$(deps.calendarStore.calendar$, clock, minutes);
  return [
    close$.subscribe(() => {
      const intraday = engine
        .orders()
        .filter((o) => o.intent.product === 'I')
        .map((o) => o.strategyId);
      for (const strategyId of new Set(intraday)) {
        logger.info(
          { component: 'execution', strategy: strategyId, minutes },
          'squaring off intraday positions before the close',
        );
        void engine.submit({
          kind: 'squareOff',
          id: `auto-eod-${clock.now()}`,
          strategyId,
          // The day's intraday positions only: delivery and F&O normal holdings stay.
          product: 'I',
          reason: 'intraday square-off before the close',
        });
      }
    }),
  ];
}

/** The periodic market summary and PnL lines (`logging.summaryIntervalSeconds`), in session. */
function summaryEvery(deps: ScheduleDeps): Subscription[] {
  const seconds = deps.config.logging.summaryIntervalSeconds;
  if (seconds <= 0) return [];
  const log = deps.logger.child({ component: 'summary' });
  const tick = () => {
    deps.mark();
    logMarketSummary(log, {
      clock: deps.clock,
      calendarStore: deps.calendarStore,
      bus: deps.feed,
      strategies: deps.strategies(),
    });
    deps.logPnl(log);
    if (deps.journal !== undefined) rememberLastPrices(deps.journal, deps.feed);
  };
  return [everyInSession(deps, seconds * 1_000).subscribe(tick)];
}

/**
 * Every `periodMs` while a session is open (the calendar's), then once after each close
 * and once after each IST midnight: prices do not move while the market is closed, so
 * the ticks of nights, weekends and holidays would repeat the last one (in a backtest,
 * they were most of the replay's steps). Ticks always while there is no calendar.
 */
function everyInSession(deps: ScheduleDeps, periodMs: number) {
  const store = deps.calendarStore;
  return sessionTicks$({
    clock: deps.clock,
    periodMs,
    sessions: () => store.calendar,
    changed$: store.calendar$,
  });
}

/**
 * Marks positions and checks the kill switch on its own timer, whatever the logging
 * settings: unrealised losses must stop entries even between fills. Every 5 s while a
 * session is open, once after each close and after each IST midnight (the kill switch's
 * first look of the day, before the open's prices move anything).
 */
function riskMarks(deps: ScheduleDeps): Subscription[] {
  return [
    everyInSession(deps, RISK_MARK_MS).subscribe(() => deps.mark()),
    // Intents deferred for want of a calendar go out once one arrives.
    deps.calendarStore.calendar$.subscribe(() => deps.engine.retryDeferred()),
  ];
}

/**
 * Starts the kernel's timers, in this order (it decides which fires first at one
 * instant of virtual time): the square-off before the close, the summary, the risk marks.
 * Returns what to unsubscribe at stop.
 */
export function startKernelSchedules(deps: ScheduleDeps): Subscription[] {
  return [...squareOffBeforeClose(deps), ...summaryEvery(deps), ...riskMarks(deps)];
}
