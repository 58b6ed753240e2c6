/**
 * `tiqs-runner`: the strategy author's door. Everything a strategy file and its test
 * import is named here, one by one (no `export *`), and kept to about 60 names so the
 * surface a strategy depends on stays small and deliberate.
 *
 * The rest of the package has its own doors (see package.json "exports"):
 * `tiqs-runner/runtime` (kernel, config, engine, journal, market-data bus, clocks, calendar
 * store), `tiqs-runner/client` (the HTTP client, its errors and wire schemas),
 * `tiqs-runner/sim` (the exchange simulator) and `tiqs-runner/backtest` (backtests,
 * sweeps, reports, recording). Anything not exported from one of the five is internal.
 */

export { z } from 'zod';
export type { FullQuote, LtpQuote } from './api/schemas/quote.ts';
export type { Greeks, OptionChainEntry } from './api/schemas/utilities.ts';
export type { CalendarTick } from './calendar/schedules.ts';
export { TradingCalendar } from './calendar/trading-calendar.ts';
export type { Clock } from './clock/clock.ts';
export type { Candle, CandleInterval } from './domain/candle.ts';
export type {
  AfterHours,
  BracketIntent,
  CancelIntent,
  Instrument,
  ModifyIntent,
  OrderIntent,
  PlaceIntent,
  SquareOffIntent,
} from './domain/intents.ts';
export { toIstIso } from './domain/ist.ts';
export {
  formatRupees,
  isOnTick,
  MoneyFormatError,
  notional,
  type Paise,
  parseRupees,
  roundToTick,
} from './domain/money.ts';
export type { OpenOrder, OrderEvent, OrderEventType, Position } from './domain/order-events.ts';
export type {
  Exchange,
  OptionType,
  OrderStatus,
  OrderType,
  Product,
  QuoteMode,
  TransactionType,
  Validity,
  Variety,
} from './domain/order-params.ts';
export type { HealthEvent } from './market-data/health.ts';
export type { MarketGreeks, MarketQuote } from './market-data/market-quote.ts';
export { atmStrike, nearestStrike, strikeStep } from './market-data/options/atm-strike.ts';
export { type ExpiryChoice, selectExpiry } from './market-data/options/expiry.ts';
export type {
  OptionChain,
  OptionChainSource,
  ResolveChainRequest,
  ResolveChainResult,
} from './market-data/options/option-chain-resolver.ts';
export type { OptionContract } from './market-data/options/option-contract.ts';
export {
  type ContractGreeks,
  pickByDelta,
  pickByOffset,
} from './market-data/options/pick-strike.ts';
export { defineStrategy, type StrategyDefinition } from './strategy/define-strategy.ts';
export type { IntentFactory, TargetRequest } from './strategy/intent-factory.ts';
export type {
  MarketView,
  OptionsView,
  ScheduleView,
  StrategyContext,
} from './strategy/strategy-context.ts';
export { createTestContext, type TestContext } from './strategy/testing/create-test-context.ts';
