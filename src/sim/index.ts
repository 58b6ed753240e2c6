/**
 * The local exchange simulator: an in-process {@link SimExchange}, the HTTP server
 * {@link startSimulator} that serves it with the API of `api-spec.md`, and the reusable
 * pieces (order engine, fill logic, market view) that paper mode and backtests share.
 */

export { blackScholes } from './black-scholes.ts';
export { checkOrder } from './engine/check-order.ts';
export {
  CANCEL_ACCEPTED,
  MODIFY_ACCEPTED,
  OrderEngine,
  type OrderEngineOptions,
} from './engine/order-engine.ts';
export {
  toHistory,
  toHistoryRecord,
  toOrderBookRecord,
  toTradeBookRecord,
} from './engine/order-records.ts';
export type { OrderFill, OrderParams, SimOrder, SimOrderEvent } from './engine/sim-order.ts';
export type { DepthBook, PriceBand, VenueMarket } from './engine/venue-market.ts';
export { FaultInjector, type FaultSettings, NO_FAULTS } from './http/fault-injector.ts';
export { ROUTE_IDS, type RouteId } from './http/route-table.ts';
export { DEFAULT_SIM_CREDENTIALS, type SimCredentials } from './http/sim-auth.ts';
export { DEFAULT_SIM_RATE_LIMITS, type SimRateLimits } from './http/sim-rate-limiter.ts';
export { SimStats } from './http/sim-stats.ts';
export {
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
} from './http/start-simulator.ts';
export { InstrumentUniverse } from './market/instrument-universe.ts';
export type { OptionTerms, SimInstrument } from './market/sim-instrument.ts';
export { type MarketHooks, SimMarket, type SimMarketOptions } from './market/sim-market.ts';
export {
  type DepthFillResult,
  fillAgainstDepth,
  isStopTriggered,
  type LevelFill,
} from './matching/fill-against-depth.ts';
export { Prng } from './prng.ts';
export { SimError } from './sim-error.ts';
export { SimExchange, type SimExchangeOptions } from './sim-exchange.ts';
export { istYear, SIM_HOLIDAYS, simHolidays, simHolidaysFor } from './sim-holidays.ts';
