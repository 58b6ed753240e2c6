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
  /**
   * Only the positions of this product: `I` closes the day's intraday quantity and
   * leaves delivery (`C`) and F&O normal (`M`) holdings (the square-off before the close
   * sends this); `C` or `M` the carried quantity. Omit for the whole net position.
   */
  product?: Product;
  reason?: string;
}

/**
 * Where a bracket's stop or target sits: `points` in paise from the entry's average fill
 * price (below it for a long's stop, above for its target; the other way for a short), or
 * an absolute `price` in paise.
 */
export type BracketLevel = { points: Paise } | { price: Paise };

/**
 * Enter, then let the framework manage the exit: once the entry fills (partly or
 * wholly), a stop (`SL-MKT`) and a target (`LMT`) are placed for the filled quantity as
 * a one-cancels-other pair, grown with later entry fills, trailed in favour with
 * `trailing`, kept across restarts and ended by a square-off or the kill switch.
 * The entry's orders carry this intent's id; the legs carry `<id>/sl` and `<id>/tp`.
 *
 * @example
 * ```ts
 * const b: BracketIntent = {
 *   kind: 'bracket', id: 'orb-1', instrument: sbin, side: 'B', quantity: 10, product: 'I',
 *   entry: { orderType: 'MKT' }, stopLoss: { points: 400 }, target: { points: 800 },
 *   trailing: { points: 400 },
 * };
 * ```
 */
export interface BracketIntent {
  kind: 'bracket';
  /** Id of the bracket and of its entry order (a cancel of it cancels the entry's rest). */
  id: string;
  instrument: Instrument;
  /** Side of the entry; the legs take the other side. */
  side: TransactionType;
  quantity: number;
  product: Product;
  entry: { orderType: 'MKT' | 'LMT'; price?: Paise };
  stopLoss: BracketLevel;
  target?: BracketLevel;
  /** The stop follows the best price since the entry at this distance (paise), in favour only. */
  trailing?: { points: Paise };
  /** While closed: wait for the next open (default) or send the entry now as AMO. */
  afterHours?: AfterHours;
  reason?: string;
}

/** Anything a strategy asks execution to do. */
export type OrderIntent =
  | PlaceIntent
  | ModifyIntent
  | CancelIntent
  | SquareOffIntent
  | BracketIntent;

/** An intent stamped with the strategy that emitted it. */
export type RoutedIntent = OrderIntent & { strategyId: string };
