/**
 * Parameter values of spec §2.9 as string-literal unions, each with the list of its
 * values (for validation and for building CLI help).
 */

/** Order variety, a path segment of the order operations. */
export const VARIETIES = ['regular', 'cover'] as const;
/** `regular` or `cover`. */
export type Variety = (typeof VARIETIES)[number];

/** Exchange segments. */
export const EXCHANGES = ['NSE', 'NFO', 'BSE', 'BFO'] as const;
/** `NSE` equity, `NFO` NSE F&O, `BSE` equity, `BFO` BSE F&O. */
export type Exchange = (typeof EXCHANGES)[number];

/** Order types. */
export const ORDER_TYPES = ['LMT', 'MKT', 'SL-LMT', 'SL-MKT'] as const;
/** `LMT` limit, `MKT` market, `SL-LMT` stop-loss limit, `SL-MKT` stop-loss market. */
export type OrderType = (typeof ORDER_TYPES)[number];

/** Products. */
export const PRODUCTS = ['I', 'C', 'M'] as const;
/** `I` intraday, `C` equity delivery, `M` F&O normal. */
export type Product = (typeof PRODUCTS)[number];

/** Transaction types. */
export const TRANSACTION_TYPES = ['B', 'S'] as const;
/** `B` buy, `S` sell. */
export type TransactionType = (typeof TRANSACTION_TYPES)[number];

/** Validities. */
export const VALIDITIES = ['DAY', 'IOC'] as const;
/** `DAY`, or `IOC` immediate-or-cancel. */
export type Validity = (typeof VALIDITIES)[number];

/** Quote modes, from least to most detail. */
export const QUOTE_MODES = ['ltp', 'ohlcv', 'full'] as const;
/** `ltp` ⊂ `ohlcv` ⊂ `full`. */
export type QuoteMode = (typeof QUOTE_MODES)[number];

/** `orderStatus` values: the spec's three plus the two the real service also uses. */
export const ORDER_STATUSES = ['PENDING', 'OPEN', 'COMPLETE', 'REJECTED', 'CANCELED'] as const;
/** Status of an order as the service reports it. */
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** `reportType` values seen in order history. */
export const REPORT_TYPES = [
  'PendingNew',
  'NewAck',
  'New',
  'Fill',
  'Replaced',
  'Canceled',
  'Rejected',
] as const;
/** Kind of an order history record. */
export type ReportType = (typeof REPORT_TYPES)[number];

/** `CE` call or `PE` put. */
export type OptionType = 'CE' | 'PE';
