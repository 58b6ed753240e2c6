/**
 * `tiqs-runner/runtime`: the parts that run a bot, for embedding the runner in another
 * program: the {@link Kernel}, config loading, the execution engine and its journal, the
 * market-data bus, the paper broker, clocks, the trading calendar and its store, and
 * logging. Strategy files import from `tiqs-runner` instead.
 */

export {
  CalendarDataError,
  InvalidInstantError,
  NoCalendarError,
  type NoCalendarReason,
} from '../calendar/calendar-errors.ts';
export {
  type CalendarStatus,
  CalendarStore,
  type CalendarStoreLogger,
  type CalendarStoreOptions,
} from '../calendar/calendar-store.ts';
export { type Instant, toEpochMs } from '../calendar/instant.ts';
export { mergeHolidays } from '../calendar/merge-holidays.ts';
export {
  atSessionOpen$,
  atTimeIst$,
  beforeClose$,
  type CalendarSource,
  type CalendarTick,
  everyWhileOpen$,
} from '../calendar/schedules.ts';
export {
  DEFAULT_EXCHANGE_SESSIONS,
  type ExchangeSessionConfig,
  type ExchangeSessionOverrides,
  type TimeOfDayRange,
} from '../calendar/session-config.ts';
export {
  type CalendarDate,
  type CalendarOptions,
  type MarketPhase,
  type OutsideCoverage,
  type Session,
  type SessionKind,
  type SpecialOnTradingDay,
  TradingCalendar,
  type TradingDay,
} from '../calendar/trading-calendar.ts';
export type { Clock } from '../clock/clock.ts';
export { LiveClock } from '../clock/live-clock.ts';
export { schedulerClock } from '../clock/scheduler-clock.ts';
export { sleep } from '../clock/sleep.ts';
export { VirtualClock, type VirtualClockOptions } from '../clock/virtual-clock.ts';
export { ConfigError, type ConfigProblem } from '../config/config-error.ts';
export {
  type RunnerConfig,
  runnerConfigSchema,
  type StrategyConfig,
} from '../config/config-schema.ts';
export { loadConfig, parseConfig } from '../config/load-config.ts';
export type { RoutedIntent } from '../domain/intents.ts';
export { IST_OFFSET_MINUTES, IST_ZONE, toIstIso } from '../domain/ist.ts';
export { ALWAYS_OPEN, type MarketSessions } from '../domain/market-sessions.ts';
export type { Broker } from '../execution/broker.ts';
export {
  ExecutionEngine,
  type ExecutionEngineOptions,
} from '../execution/execution-engine.ts';
export {
  type Journal,
  type JournalEntry,
  type JournalFill,
  type JournalSnapshot,
  MemoryJournal,
} from '../execution/journal.ts';
export { PositionBook } from '../execution/position-book.ts';
export { SqliteJournal } from '../execution/sqlite-journal.ts';
export {
  type CreateLoggerOptions,
  createLogger,
  type LogLevel,
} from '../logging/create-logger.ts';
export type { HealthEvent, HealthStatus, StaleEvent } from '../market-data/health.ts';
export {
  type InstrumentLookup,
  InstrumentMaster,
} from '../market-data/instruments/instrument-master.ts';
export {
  type InstrumentMasterOrigin,
  type InstrumentMasterStatus,
  InstrumentMasterStore,
} from '../market-data/instruments/instrument-master-store.ts';
export {
  MarketDataBus,
  type MarketDataBusOptions,
  type MarketDataBusStats,
  type SubscribeOptions,
} from '../market-data/market-data-bus.ts';
export type { MarketFeed } from '../market-data/market-feed.ts';
export { type MarketGreeks, type MarketQuote, sourceTimeOf } from '../market-data/market-quote.ts';
export {
  expiryDay,
  nearestMonthlyExpiry,
  nearestWeeklyExpiry,
} from '../market-data/options/expiry.ts';
export { resolveOptionChain } from '../market-data/options/option-chain-resolver.ts';
export { toOptionContract } from '../market-data/options/option-contract.ts';
export { modeCovers, projectQuote } from '../market-data/project-quote.ts';
export type { QuoteSource } from '../market-data/quote-source.ts';
export { type DataHealth, StrategyMarket } from '../market-data/strategy-market.ts';
export { PaperBroker } from '../paper/paper-broker.ts';
export { InstrumentMasterUnavailableError } from '../runtime/instrument-master-for.ts';
export { Kernel, type KernelOptions } from '../runtime/kernel.ts';
export { IntentFactory } from '../strategy/intent-factory.ts';
