/**
 * tiqs-runner's public API. Everything a user or a strategy may import is named here;
 * anything not exported from this file is internal.
 */

export { z } from 'zod';
export { DEFAULT_RETRY, type RetryOptions } from './api/backoff.ts';
export { InvalidResponseError } from './api/errors/invalid-response-error.ts';
export { ModifyLimitError } from './api/errors/modify-limit-error.ts';
export { NetworkError } from './api/errors/network-error.ts';
export { OutcomeUnknownError } from './api/errors/outcome-unknown-error.ts';
export { RateLimitedError } from './api/errors/rate-limited-error.ts';
export { RefusedError } from './api/errors/refused-error.ts';
export { SessionError } from './api/errors/session-error.ts';
export { TimeoutError } from './api/errors/timeout-error.ts';
export { TiqsError, type TiqsErrorDetails } from './api/errors/tiqs-error.ts';
export { Pacer, type RateClass } from './api/pacing/pacer.ts';
export { RateLimiter, type RateWindow } from './api/pacing/rate-limiter.ts';
export { DEFAULT_RATE_LIMITS, type RateLimits } from './api/pacing/rate-limits.ts';
export type { ErrorCode, ErrorEnvelope } from './api/schemas/envelope.ts';
export type {
  OrderBookRecord,
  OrderHistoryRecord,
  TradeBookRecord,
} from './api/schemas/order-records.ts';
export type {
  MessageResult,
  ModifyOrderRequest,
  PlaceOrderRequest,
  PlaceOrderResult,
} from './api/schemas/order-requests.ts';
export type {
  DepthEntry,
  FullQuote,
  LtpQuote,
  OhlcvQuote,
  Quote,
  QuoteByMode,
} from './api/schemas/quote.ts';
export type {
  Greeks,
  Holidays,
  IndexRecord,
  OptionChainEntry,
  OptionChainRequest,
  OptionChainSymbols,
} from './api/schemas/utilities.ts';
export {
  type Credentials,
  DEFAULT_BASE_URL,
  TiqsClient,
  type TiqsClientOptions,
} from './api/tiqs-client.ts';
export {
  CalendarDataError,
  InvalidInstantError,
  NoCalendarError,
  type NoCalendarReason,
} from './calendar/calendar-errors.ts';
export {
  type CalendarStatus,
  CalendarStore,
  type CalendarStoreLogger,
  type CalendarStoreOptions,
} from './calendar/calendar-store.ts';
export { type Instant, toEpochMs } from './calendar/instant.ts';
export { mergeHolidays } from './calendar/merge-holidays.ts';
export {
  atSessionOpen$,
  atTimeIst$,
  beforeClose$,
  type CalendarSource,
  type CalendarTick,
  everyWhileOpen$,
} from './calendar/schedules.ts';
export {
  DEFAULT_EXCHANGE_SESSIONS,
  type ExchangeSessionConfig,
  type ExchangeSessionOverrides,
  type TimeOfDayRange,
} from './calendar/session-config.ts';
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
} from './calendar/trading-calendar.ts';
export type { Clock } from './clock/clock.ts';
export { LiveClock } from './clock/live-clock.ts';
export { schedulerClock } from './clock/scheduler-clock.ts';
export { sleep } from './clock/sleep.ts';
export { VirtualClock, type VirtualClockOptions } from './clock/virtual-clock.ts';
export { ConfigError, type ConfigProblem } from './config/config-error.ts';
export {
  type RunnerConfig,
  runnerConfigSchema,
  type StrategyConfig,
} from './config/config-schema.ts';
export { loadConfig, parseConfig } from './config/load-config.ts';
export type {
  AfterHours,
  CancelIntent,
  Instrument,
  ModifyIntent,
  OrderIntent,
  PlaceIntent,
  RoutedIntent,
  SquareOffIntent,
} from './domain/intents.ts';
export { IST_OFFSET_MINUTES, IST_ZONE, toIstIso } from './domain/ist.ts';
export { ALWAYS_OPEN, type MarketSessions } from './domain/market-sessions.ts';
export {
  assertPaise,
  formatRupees,
  isOnTick,
  MoneyFormatError,
  notional,
  type Paise,
  parseRupees,
  roundToTick,
  type TickRounding,
} from './domain/money.ts';
export type { OrderEvent, OrderEventType, Position } from './domain/order-events.ts';
export {
  EXCHANGES,
  type Exchange,
  type OptionChainExchange,
  type OptionType,
  ORDER_STATUSES,
  ORDER_TYPES,
  type OrderStatus,
  type OrderType,
  PRODUCTS,
  type Product,
  QUOTE_MODES,
  type QuoteMode,
  REPORT_TYPES,
  type ReportType,
  TRANSACTION_TYPES,
  type TransactionType,
  VALIDITIES,
  VARIETIES,
  type Validity,
  type Variety,
} from './domain/order-params.ts';
export type { Broker } from './execution/broker.ts';
export {
  ExecutionEngine,
  type ExecutionEngineOptions,
} from './execution/execution-engine.ts';
export { PositionBook } from './execution/position-book.ts';
export {
  type CreateLoggerOptions,
  createLogger,
  type LogLevel,
} from './logging/create-logger.ts';
export type { HealthEvent, HealthStatus, StaleEvent } from './market-data/health.ts';
export {
  MarketDataBus,
  type MarketDataBusOptions,
  type MarketDataBusStats,
  type SubscribeOptions,
} from './market-data/market-data-bus.ts';
export type { MarketFeed } from './market-data/market-feed.ts';
export { type MarketGreeks, type MarketQuote, sourceTimeOf } from './market-data/market-quote.ts';
export { atmStrike, nearestStrike, strikeStep } from './market-data/options/atm-strike.ts';
export {
  type ExpiryChoice,
  expiryDay,
  nearestMonthlyExpiry,
  nearestWeeklyExpiry,
  selectExpiry,
} from './market-data/options/expiry.ts';
export {
  type ChainUnresolvedReason,
  type OptionChain,
  type OptionChainSource,
  type ResolveChainRequest,
  type ResolveChainResult,
  resolveOptionChain,
} from './market-data/options/option-chain-resolver.ts';
export { type OptionContract, toOptionContract } from './market-data/options/option-contract.ts';
export {
  type ContractGreeks,
  pickByDelta,
  pickByOffset,
} from './market-data/options/pick-strike.ts';
export { modeCovers, projectQuote } from './market-data/project-quote.ts';
export type { QuoteSource } from './market-data/quote-source.ts';
export { type DataHealth, StrategyMarket } from './market-data/strategy-market.ts';
export { PaperBroker } from './paper/paper-broker.ts';
export { Kernel, type KernelOptions } from './runtime/kernel.ts';
export {
  type RunningSimulator,
  SimExchange,
  type SimulatorOptions,
  startSimulator,
} from './sim/index.ts';
export { defineStrategy, type StrategyDefinition } from './strategy/define-strategy.ts';
export { IntentFactory } from './strategy/intent-factory.ts';
export type { MarketView, ScheduleView, StrategyContext } from './strategy/strategy-context.ts';
export { createTestContext, type TestContext } from './strategy/testing/create-test-context.ts';
