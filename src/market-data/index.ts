/**
 * The market-data bus and its options helpers: explicit named exports for `src/index.ts`.
 */
export type { HealthEvent, HealthStatus, StaleEvent } from './health.ts';
export {
  MarketDataBus,
  type MarketDataBusOptions,
  type MarketDataBusStats,
  type SubscribeOptions,
} from './market-data-bus.ts';
export type { MarketFeed } from './market-feed.ts';
export { type MarketGreeks, type MarketQuote, sourceTimeOf } from './market-quote.ts';
export { atmStrike, nearestStrike, strikeStep } from './options/atm-strike.ts';
export {
  type ExpiryChoice,
  expiryDay,
  nearestMonthlyExpiry,
  nearestWeeklyExpiry,
  selectExpiry,
} from './options/expiry.ts';
export {
  type ChainUnresolvedReason,
  type OptionChain,
  type OptionChainSource,
  type ResolveChainRequest,
  type ResolveChainResult,
  resolveOptionChain,
} from './options/option-chain-resolver.ts';
export { type OptionContract, toOptionContract } from './options/option-contract.ts';
export { type ContractGreeks, pickByDelta, pickByOffset } from './options/pick-strike.ts';
export { modeCovers, projectQuote } from './project-quote.ts';
export type { QuoteSource } from './quote-source.ts';
export { ALWAYS_OPEN, type SessionOracle } from './session-oracle.ts';
export { type DataHealth, StrategyMarket } from './strategy-market.ts';
