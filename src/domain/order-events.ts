import type { OrderIntent, PlaceIntent } from './intents.ts';
import type { Paise } from './money.ts';
import type { OrderType, Product, TransactionType } from './order-params.ts';

/** Fields every order event carries. */
interface OrderEventBase {
  /** Strategy instance that owns the order. */
  strategyId: string;
  /** Id of the place intent behind the order. */
  intentId: string;
  /** Client order id sent in `tags`. */
  tag: string;
  /** Service order id, once known. */
  orderId?: string;
  /** Event time, epoch ms on the engine's clock. */
  at: number;
}

/**
 * What happens to orders, in past tense (after NautilusTrader's naming). Expected
 * outcomes such as a rejection or a risk denial are events, not exceptions.
 *
 * @example
 * ```ts
 * ctx.orders$.pipe(filter((e) => e.type === 'OrderFilled')).subscribe((e) => ctx.log.info(e));
 * ```
 */
export type OrderEvent =
  | (OrderEventBase & { type: 'OrderSubmitted'; intent: PlaceIntent })
  | (OrderEventBase & { type: 'OrderAccepted' })
  | (OrderEventBase & { type: 'OrderOpened' })
  | (OrderEventBase & {
      type: 'OrderPartiallyFilled' | 'OrderFilled';
      fillId: string;
      fillQuantity: number;
      fillPrice: Paise;
      filledQuantity: number;
      averagePrice: Paise;
      quantity: number;
    })
  | (OrderEventBase & { type: 'OrderCancelled'; filledQuantity: number })
  | (OrderEventBase & { type: 'OrderRejected'; reason: string })
  | (OrderEventBase & { type: 'OrderModified'; quantity: number; price?: Paise })
  | (Omit<OrderEventBase, 'tag'> & { type: 'OrderDenied'; intent: OrderIntent; reason: string })
  | (Omit<OrderEventBase, 'tag'> & {
      type: 'IntentDeferred';
      intent: OrderIntent;
      until?: number;
      reason: string;
    });

/** The `type` of an {@link OrderEvent}. */
export type OrderEventType = OrderEvent['type'];

/**
 * One instrument's position of one strategy (or of all, in totals). Money in paise.
 *
 * @example
 * ```ts
 * ctx.positions$.subscribe((ps) => ps.forEach((p) => ctx.log.info({ token: p.token, pnl: p.realised + p.unrealised })));
 * ```
 */
export interface Position {
  strategyId: string;
  token: number;
  symbol: string;
  /** Signed: positive long, negative short. */
  netQuantity: number;
  /** Average price of the open quantity. */
  averagePrice: Paise;
  realised: Paise;
  unrealised: Paise;
  /** Last price used to mark the position. */
  lastPrice: Paise;
}

/**
 * One working order of a strategy as `ctx.openOrders()` shows it: placed or being placed,
 * not yet filled, cancelled or rejected. Prices in paise.
 *
 * @example
 * ```ts
 * const pendingBuys = ctx.openOrders(3045).filter((o) => o.side === 'B');
 * ```
 */
export interface OpenOrder {
  /** Id of the intent behind it (the framework's own: `auto-eod-…`, `kill-…`, `shutdown-…`). */
  intentId: string;
  token: number;
  symbol: string;
  side: TransactionType;
  /** Ordered quantity (after any modification). */
  quantity: number;
  filledQuantity: number;
  orderType: OrderType;
  product: Product;
  /** Limit price (LMT, SL-LMT), as the book last showed it. */
  price?: Paise;
  /** Trigger price (SL-LMT, SL-MKT). */
  triggerPrice?: Paise;
  /**
   * `deferred`: waiting for the open (or a pause) before it is sent; `submitting`/`unknown`:
   * sent, not yet seen in the book; `pending`/`open`: in the book.
   */
  status: OpenOrderStatus;
  /** Placed by the framework itself (square-off, kill switch, shutdown), not by an intent. */
  system: boolean;
}

/** States of a working order. */
type OpenOrderStatus = 'deferred' | 'submitting' | 'unknown' | 'pending' | 'open';

/**
 * A flat position of `token` (what `ctx.position(token)` returns when there is none).
 *
 * @example
 * ```ts
 * flatPosition('sma', 3045); // netQuantity 0, every amount 0
 * ```
 */
export function flatPosition(strategyId: string, token: number, symbol = ''): Position {
  return {
    strategyId,
    token,
    symbol,
    netQuantity: 0,
    averagePrice: 0,
    realised: 0,
    unrealised: 0,
    lastPrice: 0,
  };
}
