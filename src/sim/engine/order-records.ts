import type {
  OrderBookRecord,
  OrderHistoryRecord,
  TradeBookRecord,
} from '../../api/schemas/order-records.ts';
import { formatRupees, type Paise } from '../../domain/money.ts';
import { formatDateTime, formatEpochSeconds, formatTimeStamp } from '../ist-time.ts';
import { averagePriceOf, type OrderFill, type SimOrder, type SimOrderEvent } from './sim-order.ts';

/** Account the simulator books every order to. */
const SIM_USER_ID = 'SIM0001';

function money(order: SimOrder, paise: Paise | undefined): string {
  return paise === undefined ? '' : formatRupees(paise, order.instrument.pricePrecision);
}

function optionalMoney(order: SimOrder, paise: Paise): string {
  return paise > 0 ? money(order, paise) : '';
}

function common(order: SimOrder, e: SimOrderEvent) {
  const p = e.params;
  const inst = order.instrument;
  return {
    status: 'Ok',
    exchange: p.exchange,
    symbol: inst.symbol,
    id: order.id,
    price: money(order, p.price),
    quantity: String(p.quantity),
    product: p.product,
    orderStatus: e.status,
    transactionType: p.transactionType,
    order: p.order,
    fillShares: e.filled > 0 ? String(e.filled) : '',
    averagePrice: money(order, e.averagePrice),
    rejectReason: e.rejectReason,
    exchangeOrderID: e.exchangeOrderId,
    cancelQuantity: String(e.cancelQuantity),
    disclosedQuantity: String(p.disclosedQty),
    orderTriggerPrice: optionalMoney(order, p.triggerPrice),
    retention: p.validity,
    bookProfitPrice: optionalMoney(order, p.bookProfitPrice),
    bookLossPrice: optionalMoney(order, p.bookLossPrice),
    trailingPrice: '',
    amo: p.amo ? 'Yes' : 'No',
    pricePrecision: String(inst.pricePrecision),
    tickSize: formatRupees(inst.tick, inst.pricePrecision),
    lotSize: String(inst.lotSize),
    token: String(inst.token),
    timeStamp: formatTimeStamp(e.at),
    orderTime: formatEpochSeconds(order.placedAt),
    exchangeUpdateTime: e.exchangeOrderId === '' ? '' : formatDateTime(e.at),
  };
}

/** One order-history record (spec §2.4) for one event of `order`. */
export function toHistoryRecord(order: SimOrder, e: SimOrderEvent): OrderHistoryRecord {
  // Fields added to the fresh object, not spread into another: V8 builds a spread with
  // added keys on a slow path that allocates kilobytes per record (issue 13).
  return Object.assign(common(order, e), {
    reportType: e.reportType,
    remarks: e.params.tags,
    requestTime: formatTimeStamp(e.at),
    errorMessage: e.reportType === 'Rejected' ? e.rejectReason : '',
  });
}

/** The order's history, newest first (spec §3). */
export function toHistory(order: SimOrder): OrderHistoryRecord[] {
  return order.history.map((e) => toHistoryRecord(order, e)).reverse();
}

/** The order-book record (spec §2.5) of `order`'s current state. */
export function toOrderBookRecord(order: SimOrder): OrderBookRecord {
  const last = order.history.at(-1);
  const event: SimOrderEvent = {
    reportType: last?.reportType ?? 'PendingNew',
    at: order.updatedAt,
    status: order.status,
    params: order.params,
    filled: order.filled,
    averagePrice: averagePriceOf(order),
    rejectReason: order.rejectReason,
    cancelQuantity: order.cancelQuantity,
    exchangeOrderId: order.exchangeOrderId,
  };
  const record = common(order, event);
  // Set on the fresh object, not spread into a new one with 23 more keys: V8 builds that
  // on a slow path allocating ≈ 30 KB per record, most of it promoted (issue 13: a third
  // of a 30-day backtest's old-space growth). The keys keep their order.
  record.exchangeUpdateTime =
    order.exchangeUpdatedAt === undefined ? '' : formatDateTime(order.exchangeUpdatedAt);
  return Object.assign(record, {
    userID: SIM_USER_ID,
    accountID: SIM_USER_ID,
    marketProtection: '',
    tags: order.params.tags,
    snoOrderDirection: order.parentId === undefined ? '' : 'SL',
    snoOrderID: order.parentId ?? order.childId ?? '',
    priceFactor: '1',
    multiplier: '1',
    displayName: order.instrument.symbol,
    requiredQuantity: '',
    requiredPrice: '',
    requiredTriggerPrice: '',
    requiredBookLossPrice: '',
    requiredOriginalQuantity: '',
    requiredOriginalPrice: '',
    originalTriggerPrice: '',
    originalBookLossPrice: '',
  });
}

/**
 * The trade-book record (spec §2.6) of one fill. `tags` is not in the spec's field list
 * but the service echoes it, so it is added (and also carried in `remarks`).
 */
export function toTradeBookRecord(
  order: SimOrder,
  fill: OrderFill,
): TradeBookRecord & { tags: string } {
  const p = order.params;
  const inst = order.instrument;
  return {
    status: 'Ok',
    userID: SIM_USER_ID,
    accountID: SIM_USER_ID,
    exchange: p.exchange,
    symbol: inst.symbol,
    id: order.id,
    quantity: String(p.quantity),
    product: p.product,
    transactionType: p.transactionType,
    order: p.order,
    fillShares: String(fill.filled),
    averagePrice: money(order, fill.averagePrice),
    exchangeOrderID: order.exchangeOrderId,
    remarks: p.tags,
    retention: p.validity,
    pricePrecision: String(inst.pricePrecision),
    tickSize: formatRupees(inst.tick, inst.pricePrecision),
    lotSize: String(inst.lotSize),
    customFirm: 'C',
    fillTime: formatDateTime(fill.at),
    fillID: fill.fillId,
    fillPrice: money(order, fill.price),
    fillQuantity: String(fill.quantity),
    orderSource: 'API',
    token: String(inst.token),
    timeStamp: formatTimeStamp(fill.at),
    exchangeUpdateTime: formatDateTime(fill.at),
    snoOrderDirection: order.parentId === undefined ? '' : 'SL',
    snoOrderID: order.parentId ?? '',
    requestTime: formatTimeStamp(order.placedAt),
    errorMessage: '',
    tags: p.tags,
  };
}
