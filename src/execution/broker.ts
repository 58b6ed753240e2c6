import type {
  OrderBookRecord,
  OrderHistoryRecord,
  TradeBookRecord,
} from '../api/schemas/order-records.ts';
import type {
  MessageResult,
  ModifyOrderRequest,
  PlaceOrderRequest,
  PlaceOrderResult,
} from '../api/schemas/order-requests.ts';
import type { Variety } from '../domain/order-params.ts';

/**
 * The order side of the service, as execution needs it. `TiqsClient` implements it over
 * HTTP (live mode, or the simulator); the paper broker implements it in-process with
 * the simulator's fill logic. Records are wire-shaped in every implementation, so the
 * order tracker is the same code in every mode.
 */
export interface Broker {
  placeOrder(
    variety: Variety,
    request: PlaceOrderRequest,
    signal?: AbortSignal,
  ): Promise<PlaceOrderResult>;
  modifyOrder(
    variety: Variety,
    orderId: string,
    request: ModifyOrderRequest,
    signal?: AbortSignal,
  ): Promise<MessageResult>;
  cancelOrder(variety: Variety, orderId: string, signal?: AbortSignal): Promise<MessageResult>;
  orderHistory(orderId: string, signal?: AbortSignal): Promise<OrderHistoryRecord[]>;
  orderBook(signal?: AbortSignal): Promise<OrderBookRecord[]>;
  tradeBook(signal?: AbortSignal): Promise<TradeBookRecord[]>;
  /**
   * Offered by a broker that knows every change of its own books (the in-process paper
   * venue of a backtest): `listener` is called, synchronously, each time an order is
   * accepted, filled, cancelled or otherwise changed; returns the unregistering
   * function. The order tracker then reads the books only at a tick after a change
   * instead of at every tick. A broker over the network leaves it out: it is polled.
   */
  onBooksChanged?(listener: () => void): () => void;
}
