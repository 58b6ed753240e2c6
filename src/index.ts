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
export * from './calendar/index.ts';
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
export * from './domain/order-params.ts';
export type { Broker } from './execution/broker.ts';
export {
  ExecutionEngine,
  type ExecutionEngineOptions,
  type SessionGate,
} from './execution/execution-engine.ts';
export type { OrderEvent, OrderEventType, Position } from './execution/order-events.ts';
export { PositionBook } from './execution/position-book.ts';
export {
  type CreateLoggerOptions,
  createLogger,
  type LogLevel,
} from './logging/create-logger.ts';
export * from './market-data/index.ts';
export { Kernel, type KernelOptions } from './runtime/kernel.ts';
export { PaperBroker } from './runtime/paper-broker.ts';
export {
  type RunningSimulator,
  SimExchange,
  type SimulatorOptions,
  startSimulator,
} from './sim/index.ts';
export { defineStrategy, type StrategyDefinition } from './strategy/define-strategy.ts';
export { IntentFactory } from './strategy/intent-factory.ts';
export type {
  AfterHours,
  CancelIntent,
  Instrument,
  ModifyIntent,
  OrderIntent,
  PlaceIntent,
  RoutedIntent,
  SquareOffIntent,
} from './strategy/intents.ts';
export type { MarketView, ScheduleView, StrategyContext } from './strategy/strategy-context.ts';
export { createTestContext, type TestContext } from './strategy/testing/create-test-context.ts';
