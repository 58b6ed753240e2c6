import type { OrderBookRecord, TradeBookRecord } from '../api/schemas/order-records.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import { type OrderStep, reconcileOrder, type SeenRecord, unchanged } from './reconcile-order.ts';
import { isFinal, type TrackedOrder, trackedOrder } from './tracked-order.ts';

/** The broker's books as one poll read them. */
export interface BookSnapshot {
  readonly orders: readonly OrderBookRecord[];
  readonly trades: readonly TradeBookRecord[];
}

/**
 * What the tracker knows, indexed so that a poll looks up what the book lists instead
 * of scanning the day's orders (the tracker keeps these up to date).
 */
export interface TrackedIndex {
  /** Orders not yet final, in the order they were tracked. */
  readonly active: readonly TrackedOrder[];
  /** Every tracked order with a service id, by that id. */
  readonly byOrderId: ReadonlyMap<string, TrackedOrder>;
  /** Tags of earlier attempts (re-placements), to the order that superseded them. */
  readonly byPreviousTag: ReadonlyMap<string, TrackedOrder>;
  /** The record each order was last brought in line with, if remembered. */
  readonly seen?: { get(order: TrackedOrder): SeenRecord | undefined };
}

/** Settings of {@link reconcile}. */
export interface ReconcileContext {
  /** Epoch ms of the poll (event times, the grace period). */
  now: number;
  /** How long an order of unknown outcome may be absent before it counts as not placed. */
  unknownGraceMs: number;
}

/**
 * One thing to do about a snapshot. The synchronous steps come first, in order; the
 * follow-ups (`duplicate`, `absent`, `missing`) need the broker or the engine.
 */
export type ReconcileStep =
  | OrderStep
  /** Follow a cover order's stop-loss leg the exchange placed; announce it with `event`. */
  | { kind: 'adopt'; order: TrackedOrder; parent: TrackedOrder; event: OrderEvent }
  /** An order of unknown outcome turned up in the book by its tag. */
  | { kind: 'found'; order: TrackedOrder; orderId: string; status: TrackedOrder['status'] }
  /** An earlier attempt of a re-placed order turned up after all: cancel it. */
  | { kind: 'duplicate'; order: TrackedOrder; record: OrderBookRecord }
  /** An order of unknown outcome is absent past the grace period: not placed. */
  | { kind: 'absent'; order: TrackedOrder }
  /** An active order the day's book does not list (an earlier day's): read its history. */
  | { kind: 'missing'; order: TrackedOrder; trades: readonly TradeBookRecord[] };

/** A cover order's stop-loss leg, as the book marks it. */
function isStopLeg(record: OrderBookRecord): boolean {
  return record.snoOrderDirection === 'SL' && record.snoOrderID !== '';
}

/** An index of `orders` built by scanning them (tests; the tracker keeps its own). */
export function indexOf(orders: readonly TrackedOrder[]): TrackedIndex {
  const byOrderId = new Map<string, TrackedOrder>();
  const byPreviousTag = new Map<string, TrackedOrder>();
  for (const o of orders) {
    if (o.orderId !== undefined) byOrderId.set(o.orderId, o);
    for (const tag of o.previousTags ?? []) byPreviousTag.set(tag, o);
  }
  return { active: orders.filter((o) => !isFinal(o.status)), byOrderId, byPreviousTag };
}

/**
 * The exchange placed a cover order's stop-loss leg (linked by `snoOrderID`); its fills
 * move the position, so it is tracked like an order of the same intent: intent
 * `<id>/stop`, tag `<tag>/SL`.
 */
function stopLeg(parent: TrackedOrder, record: OrderBookRecord, now: number): TrackedOrder {
  const quantity = Number(record.quantity);
  const intentId = `${parent.intentId}/stop`;
  return trackedOrder({
    strategyId: parent.strategyId,
    intentId,
    tag: `${parent.tag}/SL`,
    variety: 'cover',
    intent: {
      ...parent.intent,
      id: intentId,
      side: parent.intent.side === 'B' ? 'S' : 'B',
      quantity,
      orderType: 'SL-MKT',
      reason: 'stop-loss leg of a cover order',
    },
    request: parent.request,
    orderId: record.id,
    status: 'pending',
    quantity,
    placedAt: now,
    system: true,
  });
}

/**
 * Reconciliation as a pure function (after nautilus_trader's `reconciliation` module):
 * what a snapshot of the books means for the tracked orders, as steps to apply in order.
 * Nothing is changed, sent or logged here; the tracker applies the steps. Orders whose
 * record is as last seen, with every fill booked, yield no step at all.
 */
export function reconcile(
  index: TrackedIndex,
  snapshot: BookSnapshot,
  context: ReconcileContext,
): ReconcileStep[] {
  const { now } = context;
  const steps: ReconcileStep[] = [];
  const follow: ReconcileStep[] = [];
  const active = [...index.active];
  const byId = new Map<string, TrackedOrder>();
  const byTag = new Map<string, TrackedOrder>();
  for (const o of active) {
    if (o.orderId !== undefined) byId.set(o.orderId, o);
    else byTag.set(o.tag, o);
  }
  const records = new Map<TrackedOrder, OrderBookRecord>();
  const late = new Map<string, OrderBookRecord>();
  // One pass over the book, looking up only what is tracked; later records win.
  for (const record of snapshot.orders) {
    if (isStopLeg(record)) {
      const parent = index.byOrderId.get(record.snoOrderID);
      if (parent?.variety === 'cover' && !index.byOrderId.has(record.id) && !byId.has(record.id)) {
        const leg = stopLeg(parent, record, now);
        steps.push({
          kind: 'adopt',
          order: leg,
          parent,
          event: { type: 'OrderSubmitted', ...eventBase(leg, now), intent: leg.intent },
        });
        active.push(leg);
        byId.set(record.id, leg);
      }
    } else if (record.tags !== '') {
      const tagged = byTag.get(record.tags);
      if (tagged !== undefined) records.set(tagged, record);
      if (index.byPreviousTag.has(record.tags)) late.set(record.tags, record);
    }
    const own = byId.get(record.id);
    if (own !== undefined) records.set(own, record);
  }
  const claimed = new Set<string>();
  // Walked only when an earlier attempt's tag turned up (rare): the map grows all day.
  for (const [tag, order] of late.size === 0 ? [] : index.byPreviousTag) {
    const record = late.get(tag);
    if (record === undefined || claimed.has(record.id)) continue;
    if (index.byOrderId.has(record.id) || byId.has(record.id)) continue;
    claimed.add(record.id);
    follow.push({ kind: 'duplicate', order, record });
  }
  const absent: ReconcileStep[] = [];
  const missing: ReconcileStep[] = [];
  const trades = tradesOf(snapshot.trades, active, records);
  for (const order of active) {
    const record = records.get(order);
    if (record === undefined) {
      if (order.orderId !== undefined)
        missing.push({ kind: 'missing', order, trades: trades.get(order.orderId) ?? [] });
      else if (
        order.status === 'unknown' &&
        now - (order.unknownSince ?? now) >= context.unknownGraceMs
      )
        absent.push({ kind: 'absent', order });
      continue;
    }
    const own = trades.get(record.id) ?? [];
    if (order.orderId === undefined) {
      const status =
        order.status === 'unknown' || order.status === 'submitting' ? 'pending' : order.status;
      steps.push({ kind: 'found', order, orderId: record.id, status });
      const state = { ...order, orderId: record.id, status };
      steps.push(...reconcileOrder(order, record, own, now, state));
      continue;
    }
    if (unchanged(order, record, own, index.seen?.get(order))) continue;
    steps.push(...reconcileOrder(order, record, own, now));
  }
  return [...steps, ...follow, ...absent, ...missing];
}

/** The trades of each order id that the poll has a record for (or may read a history of). */
function tradesOf(
  trades: readonly TradeBookRecord[],
  active: readonly TrackedOrder[],
  records: ReadonlyMap<TrackedOrder, OrderBookRecord>,
): Map<string, TradeBookRecord[]> {
  const out = new Map<string, TradeBookRecord[]>();
  for (const o of active) {
    const id = records.get(o)?.id ?? o.orderId;
    if (id !== undefined) out.set(id, []);
  }
  for (const t of trades) out.get(t.id)?.push(t);
  return out;
}

/** The fields every event about `order` carries. */
function eventBase(order: TrackedOrder, at: number) {
  return {
    strategyId: order.strategyId,
    intentId: order.intentId,
    tag: order.tag,
    at,
    ...(order.orderId === undefined ? {} : { orderId: order.orderId }),
  };
}
