import type { OrderBookRecord, TradeBookRecord } from '../api/schemas/order-records.ts';
import { toOrderBookRecord, toTradeBookRecord } from '../sim/engine/order-records.ts';
import type { OrderFill, SimOrder } from '../sim/engine/sim-order.ts';

/** What an order-book record is built from, besides the order's fixed terms. */
interface OrderStamp {
  record: OrderBookRecord;
  params: SimOrder['params'];
  events: number;
  updatedAt: number;
  status: SimOrder['status'];
  filled: number;
  fillValue: number;
  cancelQuantity: number;
  rejectReason: string;
  exchangeOrderId: string;
  exchangeUpdatedAt: number | undefined;
  childId: string | undefined;
}

/**
 * The paper broker's order-book and trade-book records, built once per state of an
 * order (or fill) rather than on every tracking poll. The order tracker polls both books
 * every `trackIntervalMs` while an order is active, and building a record formats
 * prices and IST times: with an order resting all day, rebuilding every record each
 * poll dominated a backtest. The records handed out are shared; treat them as the
 * read-only wire answers they stand for.
 *
 * @example
 * ```ts
 * const cache = new BookRecordCache();
 * const book = engine.orders().map((o) => cache.order(o));
 * ```
 */
export class BookRecordCache {
  private readonly orders = new Map<string, OrderStamp>();
  private readonly trades = new WeakMap<
    OrderFill,
    { record: TradeBookRecord; params: SimOrder['params']; exchangeOrderId: string }
  >();

  /** The order-book record of `order`'s current state. */
  order(order: SimOrder): OrderBookRecord {
    const s = this.orders.get(order.id);
    if (
      s !== undefined &&
      s.params === order.params &&
      s.events === order.history.length &&
      s.updatedAt === order.updatedAt &&
      s.status === order.status &&
      s.filled === order.filled &&
      s.fillValue === order.fillValue &&
      s.cancelQuantity === order.cancelQuantity &&
      s.rejectReason === order.rejectReason &&
      s.exchangeOrderId === order.exchangeOrderId &&
      s.exchangeUpdatedAt === order.exchangeUpdatedAt &&
      s.childId === order.childId
    ) {
      return s.record;
    }
    const record = toOrderBookRecord(order);
    this.orders.set(order.id, {
      record,
      params: order.params,
      events: order.history.length,
      updatedAt: order.updatedAt,
      status: order.status,
      filled: order.filled,
      fillValue: order.fillValue,
      cancelQuantity: order.cancelQuantity,
      rejectReason: order.rejectReason,
      exchangeOrderId: order.exchangeOrderId,
      exchangeUpdatedAt: order.exchangeUpdatedAt,
      childId: order.childId,
    });
    return record;
  }

  /** Drops what is kept for an order the venue forgot (its fills' records go with them). */
  forget(orderId: string): void {
    this.orders.delete(orderId);
  }

  /** The trade-book record of one fill of `order`. */
  trade(order: SimOrder, fill: OrderFill): TradeBookRecord {
    const t = this.trades.get(fill);
    if (t !== undefined && t.params === order.params && t.exchangeOrderId === order.exchangeOrderId)
      return t.record;
    const record = toTradeBookRecord(order, fill);
    this.trades.set(fill, { record, params: order.params, exchangeOrderId: order.exchangeOrderId });
    return record;
  }
}
