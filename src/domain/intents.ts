import type { Paise } from './money.ts';
import type {
  Exchange,
  OptionType,
  OrderType,
  Product,
  TransactionType,
  Validity,
  Variety,
} from './order-params.ts';

/**
 * An instrument as orders need it.
 *
 * @example
 * ```ts
 * const sbin: Instrument = { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ', lotSize: 1, tickSize: 5 };
 * ```
 */
export interface Instrument {
  exchange: Exchange;
  /** Instrument token (a number everywhere; the order payloads' text form exists only at the wire). */
  token: number;
  /** Trading symbol. */
  symbol: string;
  /** Lot size; quantities must be a multiple. Default 1. */
  lotSize?: number;
  /** Tick size in paise. Default 5 (₹0.05). */
  tickSize?: Paise;
  /** Digits after the decimal point of a rupee price (instrument master). */
  pricePrecision?: number;
  /** Derivatives: expiry as the instrument master writes it (the simulator: `DD-MON-YYYY`). */
  expiry?: string;
  /** Options: strike price in paise. */
  strike?: Paise;
  /** Options: call or put. */
  optionType?: OptionType;
}

/** What to do with an intent that arrives while the market is closed. */
export type AfterHours = 'wait' | 'amo';

/**
 * Place a new order. Every field of the place-order body (spec §4.2) is here, typed;
 * money in integer paise.
 *
 * @example
 * ```ts
 * const buy: PlaceIntent = {
 *   kind: 'place', id: 'entry-1', instrument: sbin, side: 'B', quantity: 10,
 *   orderType: 'LMT', price: 80190, product: 'I',
 * };
 * ```
 */
export interface PlaceIntent {
  kind: 'place';
  /** Id of this intent, unique within its strategy; later intents refer to it. */
  id: string;
  instrument: Instrument;
  side: TransactionType;
  quantity: number;
  orderType: OrderType;
  /** Limit price in paise (LMT, SL-LMT). */
  price?: Paise;
  /** Trigger price in paise (SL-LMT, SL-MKT). */
  triggerPrice?: Paise;
  product: Product;
  /** Default `DAY`. */
  validity?: Validity;
  /** Default `regular`; `cover` needs `bookLossPrice`. */
  variety?: Variety;
  /** Stop-loss price of a cover order's stop leg, in paise. */
  bookLossPrice?: Paise;
  /** Default 0. */
  disclosedQty?: number;
  /** While closed: wait for the next open (default) or send now as AMO. */
  afterHours?: AfterHours;
  /** Free text for logs and the journal. */
  reason?: string;
}

/**
 * Change an order this strategy placed earlier (by the place intent's id).
 *
 * @example
 * ```ts
 * const move: ModifyIntent = { kind: 'modify', id: 'move-1', target: 'entry-1', price: 80250 };
 * ```
 */
export interface ModifyIntent {
  kind: 'modify';
  id: string;
  /** Id of the earlier place intent. */
  target: string;
  quantity?: number;
  price?: Paise;
  triggerPrice?: Paise;
  orderType?: OrderType;
  reason?: string;
}

/**
 * Cancel an order this strategy placed earlier.
 *
 * @example
 * ```ts
 * const drop: CancelIntent = { kind: 'cancel', id: 'cancel-1', target: 'entry-1' };
 * ```
 */
export interface CancelIntent {
  kind: 'cancel';
  id: string;
  target: string;
  reason?: string;
}

/**
 * Close this strategy's position in one instrument, or in all of them, at market, after
 * cancelling its open orders there.
 *
 * @example
 * ```ts
 * const flat: SquareOffIntent = { kind: 'squareOff', id: 'eod', reason: 'close' };
 * ```
 */
export interface SquareOffIntent {
  kind: 'squareOff';
  id: string;
  /** Token of the instrument; omit for every instrument. */
  token?: number;
  reason?: string;
}

/** Anything a strategy asks execution to do. */
export type OrderIntent = PlaceIntent | ModifyIntent | CancelIntent | SquareOffIntent;

/** An intent stamped with the strategy that emitted it. */
export type RoutedIntent = OrderIntent & { strategyId: string };
