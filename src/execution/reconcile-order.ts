import type { OrderBookRecord, TradeBookRecord } from '../api/schemas/order-records.ts';
import { parseRupees } from '../domain/money.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import type { TrackedOrder, TrackedStatus } from './tracked-order.ts';

/** The fields of an order's state that the book and the history share. */
export type OrderState = Pick<
  OrderBookRecord,
  'orderStatus' | 'quantity' | 'price' | 'fillShares' | 'rejectReason'
>;

/** Fields of a tracked order that reconciliation changes. */
type OrderPatch = Partial<
  Pick<
    TrackedOrder,
    | 'orderId'
    | 'status'
    | 'quantity'
    | 'bookPrice'
    | 'bookFilledQuantity'
    | 'acceptedSeen'
    | 'openedSeen'
  >
>;

/** A fill event of the tracker. */
type FillEvent = Extract<OrderEvent, { type: 'OrderFilled' | 'OrderPartiallyFilled' }>;

/**
 * An order's record as last applied, with the state it left the order in. When the
 * book shows the same record again, the order has not moved and nothing is repeated
 * (issue 13: a poll's cost follows the changes, not the day's order count).
 */
export interface SeenRecord extends OrderState {
  status: TrackedStatus;
  orderQuantity: number;
  filledQuantity: number;
}

/** One change to one order, applied in order; see {@link reconcileOrder}. */
export type OrderStep =
  /** Set `patch`, then publish `event` (journalled with the order as patched). */
  | { kind: 'update'; order: TrackedOrder; patch: OrderPatch; event?: OrderEvent }
  /** Publish the fill first; book it in memory only once the journal took it. */
  | {
      kind: 'fill';
      order: TrackedOrder;
      event: FillEvent;
      fillId: string;
      filledQuantity: number;
      complete: boolean;
    }
  /** The order's changes are done: write it, and remember the record it reflects. */
  | { kind: 'settled'; order: TrackedOrder; seen: SeenRecord };

const sameRecord = (a: SeenRecord, r: OrderState): boolean =>
  a.orderStatus === r.orderStatus &&
  a.quantity === r.quantity &&
  a.price === r.price &&
  a.fillShares === r.fillShares &&
  a.rejectReason === r.rejectReason;

/**
 * Whether `record` and `trades` can change nothing: the order looks as the same record
 * left it, and every fill is booked.
 */
export function unchanged(
  order: TrackedOrder,
  record: OrderState,
  trades: readonly TradeBookRecord[],
  seen: SeenRecord | undefined,
): boolean {
  return (
    seen !== undefined &&
    sameRecord(seen, record) &&
    seen.status === order.status &&
    seen.orderQuantity === order.quantity &&
    seen.filledQuantity === order.filledQuantity &&
    trades.every((t) => order.fills.has(t.fillID))
  );
}

/**
 * The steps that bring `order` in line with its `record` (book or history) and its
 * `trades`, in lifecycle order: accepted and opened, then fills, then the final state.
 * Pure: `order` is read (as `state`, which may carry a just-learnt id), never changed.
 * The trade book may lag the order book, so no final state comes before every fill the
 * record counts is booked.
 */
export function reconcileOrder(
  order: TrackedOrder,
  record: OrderState,
  trades: readonly TradeBookRecord[],
  now: number,
  state: Readonly<TrackedOrder> = order,
): OrderStep[] {
  const steps: OrderStep[] = [];
  const base = {
    strategyId: state.strategyId,
    intentId: state.intentId,
    tag: state.tag,
    at: now,
    ...(state.orderId === undefined ? {} : { orderId: state.orderId }),
  };
  const update = (patch: OrderPatch, event?: OrderEvent): void => {
    if (event !== undefined || Object.keys(patch).length > 0)
      steps.push({ kind: 'update', order, patch, ...(event === undefined ? {} : { event }) });
  };
  const status = record.orderStatus;
  if (!state.acceptedSeen && status !== 'REJECTED')
    update({ acceptedSeen: true }, { type: 'OrderAccepted', ...base });

  let quantity = state.quantity;
  const bookQuantity = Number(record.quantity);
  const price = record.price === '' ? undefined : parseRupees(record.price);
  const quantityChanged =
    Number.isFinite(bookQuantity) && bookQuantity > 0 && bookQuantity !== quantity;
  // The first sighting only learns the price; later changes are modifications.
  const priceChanged = state.bookPrice !== undefined && price !== state.bookPrice;
  const pricePatch: OrderPatch = price === undefined ? {} : { bookPrice: price };
  if (quantityChanged || priceChanged) {
    if (quantityChanged) quantity = bookQuantity;
    update(
      { ...pricePatch, quantity },
      { type: 'OrderModified', ...base, quantity, ...(price === undefined ? {} : { price }) },
    );
  } else update(pricePatch);

  const filledNow = Number(record.fillShares || '0');
  // The trade book may lag: a stop must not take a filled order for an unfilled one.
  const openPatch: OrderPatch = Number.isFinite(filledNow) ? { bookFilledQuantity: filledNow } : {};
  if ((status === 'OPEN' || status === 'COMPLETE' || filledNow > 0) && !state.openedSeen)
    update({ ...openPatch, openedSeen: true }, { type: 'OrderOpened', ...base });
  else update(openPatch);

  let filledQuantity = state.filledQuantity;
  let current = state.status;
  const fresh = trades
    .filter((t) => !state.fills.has(t.fillID))
    .sort((a, b) => Number(a.fillShares) - Number(b.fillShares));
  for (const t of fresh) {
    const fillQuantity = Number(t.fillQuantity);
    filledQuantity += fillQuantity;
    const complete = filledQuantity >= quantity;
    if (complete) current = 'complete';
    steps.push({
      kind: 'fill',
      order,
      fillId: t.fillID,
      filledQuantity,
      complete,
      event: {
        type: complete ? 'OrderFilled' : 'OrderPartiallyFilled',
        ...base,
        fillId: t.fillID,
        fillQuantity,
        fillPrice: parseRupees(t.fillPrice),
        filledQuantity,
        averagePrice:
          t.averagePrice === '' ? parseRupees(t.fillPrice) : parseRupees(t.averagePrice),
        quantity,
      },
    });
  }

  const fillsBooked = filledQuantity >= Number(record.fillShares || '0');
  let next: TrackedStatus | undefined;
  let event: OrderEvent | undefined;
  if (status === 'PENDING') next = 'pending';
  else if (status === 'OPEN') next = 'open';
  else if (status === 'COMPLETE' && filledQuantity >= quantity) next = 'complete';
  else if (status === 'REJECTED' && fillsBooked) {
    next = 'rejected';
    event = {
      type: 'OrderRejected',
      ...base,
      reason: record.rejectReason || 'rejected by the service',
    };
  } else if (status === 'CANCELED' && fillsBooked) {
    next = 'cancelled';
    event = { type: 'OrderCancelled', ...base, filledQuantity };
  }
  if (next !== undefined && (next !== current || event !== undefined)) {
    current = next;
    update({ status: next }, event);
  }

  steps.push({
    kind: 'settled',
    order,
    seen: {
      orderStatus: record.orderStatus,
      quantity: record.quantity,
      price: record.price,
      fillShares: record.fillShares,
      rejectReason: record.rejectReason,
      status: current,
      orderQuantity: quantity,
      filledQuantity,
    },
  });
  return steps;
}
