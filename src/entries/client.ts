/**
 * `tiqs-runner/client`: the typed HTTP client of the Tiqs service on its own, for tools
 * and scripts that talk to the service without running a bot. It holds {@link TiqsClient},
 * its typed errors (one class each, all a {@link TiqsError}), the client-side pacing,
 * retry policy, the wire record types and the order-parameter vocabulary.
 */

export { DEFAULT_RETRY, type RetryOptions } from '../api/backoff.ts';
export { InvalidResponseError } from '../api/errors/invalid-response-error.ts';
export { NetworkError } from '../api/errors/network-error.ts';
export { OutcomeUnknownError } from '../api/errors/outcome-unknown-error.ts';
export { RateLimitedError } from '../api/errors/rate-limited-error.ts';
export { RefusedError } from '../api/errors/refused-error.ts';
export { SessionError } from '../api/errors/session-error.ts';
export { TimeoutError } from '../api/errors/timeout-error.ts';
export { TiqsError, type TiqsErrorDetails } from '../api/errors/tiqs-error.ts';
export {
  DEFAULT_INSTRUMENT_MASTER_FORMAT,
  type InstrumentMasterColumns,
  type InstrumentMasterFormat,
  InstrumentMasterFormatError,
  type ParsedInstrumentMaster,
  parseInstrumentMaster,
  type SkippedRow,
} from '../api/instrument-master-csv.ts';
export { Pacer, type RateClass } from '../api/pacing/pacer.ts';
export { RateLimiter, type RateWindow } from '../api/pacing/rate-limiter.ts';
export { DEFAULT_RATE_LIMITS, type RateLimits } from '../api/pacing/rate-limits.ts';
export type { ErrorCode, ErrorEnvelope } from '../api/schemas/envelope.ts';
export type {
  OrderBookRecord,
  OrderHistoryRecord,
  TradeBookRecord,
} from '../api/schemas/order-records.ts';
export type {
  MessageResult,
  ModifyOrderRequest,
  PlaceOrderRequest,
  PlaceOrderResult,
} from '../api/schemas/order-requests.ts';
export type {
  DepthEntry,
  FullQuote,
  LtpQuote,
  OhlcvQuote,
  Quote,
  QuoteByMode,
} from '../api/schemas/quote.ts';
export type {
  Greeks,
  Holidays,
  IndexRecord,
  OptionChainEntry,
  OptionChainRequest,
  OptionChainSymbols,
} from '../api/schemas/utilities.ts';
export {
  type Credentials,
  DEFAULT_BASE_URL,
  TiqsClient,
  type TiqsClientOptions,
} from '../api/tiqs-client.ts';
export {
  EXCHANGES,
  type Exchange,
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
} from '../domain/order-params.ts';
