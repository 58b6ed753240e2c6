import type { OrderIntent, PlaceIntent } from './intents.ts';
import type { Paise } from './money.ts';

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
