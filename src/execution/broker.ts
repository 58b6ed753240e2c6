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
}
