import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import type { OrderBookRecord, TradeBookRecord } from '../api/schemas/order-records.ts';
import type { Clock } from '../clock/clock.ts';
import { parseRupees } from '../domain/money.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import type { Broker } from './broker.ts';
import { isFinal, type TrackedOrder } from './tracked-order.ts';

const intentKey = (strategyId: string, intentId: string): string =>
  `${strategyId}\u0000${intentId}`;

/** A cover order's stop-loss leg, as the book marks it. */
function isStopLeg(record: OrderBookRecord): boolean {
  return record.snoOrderDirection === 'SL' && record.snoOrderID !== '';
}

/** The fields of an order's state that the book and the history share. */
type OrderState = Pick<
  OrderBookRecord,
  'orderStatus' | 'quantity' | 'price' | 'fillShares' | 'rejectReason'
>;

/** Options of {@link OrderTracker}. */
export interface OrderTrackerOptions {
  broker: Broker;
  clock: Clock;
  logger: Logger;
  /** Poll interval of the order and trade books. */
  intervalMs: number;
  /** How long an order whose placement outcome is unknown may be absent before it counts as not placed. */
  unknownGraceMs: number;
  /** Publishes an event; it must journal first. A throw means nothing was recorded. */
  emit(event: OrderEvent): void;
  /** Writes an order's new state to the journal. */
  persist(order: TrackedOrder): void;
  /** Called when an unknown placement is confirmed absent after the grace period. */
  onAbsent(order: TrackedOrder): Promise<void>;
  /** An earlier attempt of a re-placed order turned up in the book after all. */
  onDuplicate(order: TrackedOrder, record: OrderBookRecord): Promise<void>;
  /** A poll failed (the engine pauses on an expired session). */
  onPollError(err: unknown): void;
  /** While true, polls are skipped (trading paused). */
  isPaused(): boolean;
  /** Called after every poll, busy or idle: room for housekeeping off the order path. */
  afterPoll?(): void;
}

/**
 * Learns order state by polling the order book and the trade book (the service's push
 * channel is not in the spec) and turns changes into events: accepted, opened,
 * partially filled, filled, cancelled, rejected, modified. Fills are keyed by `fillID`,
 * so none is lost between polls or counted twice; an order becomes final only once
 * every fill the book reports has been booked.
 */
export class OrderTracker {
  private readonly orders = new Map<string, TrackedOrder>();
  /** Orders that were not final when last looked at: `active()` need not scan the day. */
  private readonly open = new Set<TrackedOrder>();
  /** The latest order of each strategy intent. */
  private readonly byIntentKey = new Map<string, TrackedOrder>();
  private timer: Subscription | undefined;
  private inFlight: Promise<void> | undefined;
  private stopped = false;
  private readOk = true;

  constructor(private readonly options: OrderTrackerOptions) {}

  /** Starts following `order` (by its tag). */
  track(order: TrackedOrder): void {
    this.orders.set(order.tag, order);
    this.byIntentKey.set(intentKey(order.strategyId, order.intentId), order);
    if (!isFinal(order.status)) this.open.add(order);
  }

  /** Follows `order` under a new tag (a re-placement); the old key goes. */
  rekey(oldTag: string, order: TrackedOrder): void {
    this.orders.delete(oldTag);
    this.track(order);
  }

  /** The latest order placed for a strategy's intent, if any. */
  byIntent(strategyId: string, intentId: string): TrackedOrder | undefined {
    return this.byIntentKey.get(intentKey(strategyId, intentId));
  }

  /** Every tracked order. */
  all(): TrackedOrder[] {
    return [...this.orders.values()];
  }

  /** Orders not yet final. */
  active(): TrackedOrder[] {
    const out: TrackedOrder[] = [];
    for (const o of this.open) {
      if (isFinal(o.status)) this.open.delete(o);
      else out.push(o);
    }
    return out;
  }

  /** Starts the polling loop on the clock. */
  start(): void {
    if (this.timer !== undefined) return;
    this.stopped = false;
    const loop = (): void => {
      if (this.stopped) return;
      this.timer = this.options.clock.scheduler.schedule(() => {
        void this.poll().finally(loop);
      }, this.options.intervalMs);
    };
    loop();
  }

  /** Stops polling; resolves once a poll under way has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.unsubscribe();
    this.timer = undefined;
    await this.inFlight;
  }

  /**
   * Whether the latest poll read both books (or had nothing to read). False after a
   * failed read or while paused: what the tracker knows is then only as last seen.
   */
  get lastReadOk(): boolean {
    return this.readOk;
  }

  /** One poll of both books; waits for a poll already under way instead of skipping. */
  poll(): Promise<void> {
    if (this.inFlight !== undefined) return this.inFlight;
    if (this.options.isPaused()) {
      this.readOk = false;
      return Promise.resolve();
    }
    this.inFlight = this.pollOnce().finally(() => {
      this.inFlight = undefined;
      this.options.afterPoll?.();
    });
    return this.inFlight;
  }

  private async pollOnce(): Promise<void> {
    if (this.active().length === 0) {
      this.readOk = true;
      return;
    }
    try {
      const [book, trades] = await Promise.all([
        this.options.broker.orderBook(),
        this.options.broker.tradeBook(),
      ]);
      this.readOk = true;
      const { missing, absent, duplicates } = this.reconcile(book, trades);
      for (const [order, record] of duplicates) await this.options.onDuplicate(order, record);
      for (const order of absent) await this.options.onAbsent(order);
      // An active order the day's book does not list (e.g. an after-market order from
      // an earlier day) is read from its own history instead.
      for (const order of missing) {
        try {
          const [latest] = await this.options.broker.orderHistory(order.orderId ?? '');
          if (latest === undefined) continue;
          this.apply(order, latest, trades);
        } catch (err) {
          this.options.logger.warn(
            { err, tag: order.tag },
            'order history unavailable; will ask again',
          );
        }
      }
    } catch (err) {
      this.readOk = false;
      this.options.onPollError(err);
      // A refused session pauses tracking, and the pause has its own single line.
      if (!this.options.isPaused())
        this.options.logger.warn({ err }, 'order tracking poll failed; will retry');
    }
  }

  /**
   * Applies a snapshot of the books: the heart of tracking, also used at start-up.
   * Returns the active orders with an id that the book does not list, the unknown
   * placements confirmed absent, and earlier attempts that turned up late.
   */
  reconcile(
    book: readonly OrderBookRecord[],
    trades: readonly TradeBookRecord[],
  ): {
    missing: TrackedOrder[];
    absent: TrackedOrder[];
    duplicates: Array<[TrackedOrder, OrderBookRecord]>;
  } {
    const missing: TrackedOrder[] = [];
    const absent: TrackedOrder[] = [];
    const duplicates: Array<[TrackedOrder, OrderBookRecord]> = [];
    this.adoptStopLegs(book);
    const now = this.options.clock.now();
    // A cover order's stop leg carries its parent's tag; only main legs are found by tag.
    const byTag = new Map(
      book.filter((r) => r.tags !== '' && !isStopLeg(r)).map((r) => [r.tags, r]),
    );
    const byId = new Map(book.map((r) => [r.id, r]));
    const tracked = new Set(
      this.all().flatMap((o) => (o.orderId === undefined ? [] : [o.orderId])),
    );
    for (const order of this.all()) {
      for (const old of order.previousTags ?? []) {
        const late = byTag.get(old);
        if (late !== undefined && !tracked.has(late.id)) {
          tracked.add(late.id);
          duplicates.push([order, late]);
        }
      }
    }
    for (const order of this.active()) {
      const record = order.orderId === undefined ? byTag.get(order.tag) : byId.get(order.orderId);
      if (record === undefined && order.orderId === undefined) {
        if (
          order.status === 'unknown' &&
          now - (order.unknownSince ?? now) >= this.options.unknownGraceMs
        ) {
          absent.push(order);
        }
        continue;
      }
      if (record === undefined) {
        missing.push(order);
        continue;
      }
      if (order.orderId === undefined) {
        order.orderId = record.id;
        if (order.status === 'unknown' || order.status === 'submitting') order.status = 'pending';
        this.options.logger.info(
          { tag: order.tag, orderId: record.id },
          'order found in the book by its tag',
        );
      }
      this.apply(order, record, trades);
    }
    return { missing, absent, duplicates };
  }

  /** Events in lifecycle order: accepted and opened, then fills, then the final state. */
  private apply(order: TrackedOrder, record: OrderState, trades: readonly TradeBookRecord[]): void {
    this.applyProgress(order, record);
    this.applyFills(
      order,
      trades.filter((t) => t.id === order.orderId),
    );
    this.applyStatus(order, record);
    this.options.persist(order);
  }

  /**
   * A filled cover order spawns a stop-loss leg at the exchange (linked by `snoOrderID`).
   * Its fills move the position, so it is tracked like an order of the same intent:
   * intent `<id>/stop`, tag `<tag>/SL`.
   */
  private adoptStopLegs(book: readonly OrderBookRecord[]): void {
    const known = new Set<string>();
    const parents = new Map<string, TrackedOrder>();
    for (const o of this.orders.values()) {
      if (o.orderId !== undefined) known.add(o.orderId);
      if (o.orderId !== undefined && o.variety === 'cover') parents.set(o.orderId, o);
    }
    for (const record of book) {
      if (!isStopLeg(record) || known.has(record.id)) continue;
      const parent = parents.get(record.snoOrderID);
      if (parent === undefined) continue;
      const quantity = Number(record.quantity);
      const leg: TrackedOrder = {
        strategyId: parent.strategyId,
        intentId: `${parent.intentId}/stop`,
        tag: `${parent.tag}/SL`,
        variety: 'cover',
        intent: {
          ...parent.intent,
          id: `${parent.intentId}/stop`,
          side: parent.intent.side === 'B' ? 'S' : 'B',
          quantity,
          orderType: 'SL-MKT',
          reason: 'stop-loss leg of a cover order',
        },
        request: parent.request,
        orderId: record.id,
        status: 'pending',
        quantity,
        filledQuantity: 0,
        fills: new Set(),
        replacements: 0,
        modifications: 0,
        placedAt: this.options.clock.now(),
        acceptedSeen: false,
        openedSeen: false,
        system: true,
      };
      this.track(leg);
      // The exchange placed it on our behalf: announce it like any order, so every
      // consumer of events (positions, ledgers, strategies) knows what it is.
      this.options.emit({ type: 'OrderSubmitted', ...this.base(leg), intent: leg.intent });
      this.options.logger.info(
        { tag: leg.tag, orderId: record.id, parent: parent.orderId },
        'following the stop leg of a cover order',
      );
    }
  }

  private base(order: TrackedOrder) {
    return {
      strategyId: order.strategyId,
      intentId: order.intentId,
      tag: order.tag,
      at: this.options.clock.now(),
      ...(order.orderId === undefined ? {} : { orderId: order.orderId }),
    };
  }

  private applyProgress(order: TrackedOrder, record: OrderState): void {
    const { emit } = this.options;
    const status = record.orderStatus;
    if (!order.acceptedSeen && status !== 'REJECTED') {
      order.acceptedSeen = true;
      emit({ type: 'OrderAccepted', ...this.base(order) });
    }
    const quantity = Number(record.quantity);
    const price = record.price === '' ? undefined : parseRupees(record.price);
    const quantityChanged =
      Number.isFinite(quantity) && quantity > 0 && quantity !== order.quantity;
    // The first sighting only learns the price; later changes are modifications.
    const priceChanged = order.bookPrice !== undefined && price !== order.bookPrice;
    if (price !== undefined) order.bookPrice = price;
    if (quantityChanged || priceChanged) {
      if (quantityChanged) order.quantity = quantity;
      emit({
        type: 'OrderModified',
        ...this.base(order),
        quantity: order.quantity,
        ...(price === undefined ? {} : { price }),
      });
    }
    const filledNow = Number(record.fillShares || '0');
    // The trade book may lag: a stop must not take a filled order for an unfilled one.
    if (Number.isFinite(filledNow)) order.bookFilledQuantity = filledNow;
    if ((status === 'OPEN' || status === 'COMPLETE' || filledNow > 0) && !order.openedSeen) {
      order.openedSeen = true;
      emit({ type: 'OrderOpened', ...this.base(order) });
    }
  }

  private applyStatus(order: TrackedOrder, record: OrderState): void {
    const { emit } = this.options;
    const status = record.orderStatus;
    // The trade book may lag the order book: no final state before every fill is booked.
    const fillsBooked = order.filledQuantity >= Number(record.fillShares || '0');
    if (status === 'PENDING') order.status = 'pending';
    else if (status === 'OPEN') order.status = 'open';
    else if (status === 'COMPLETE' && order.filledQuantity >= order.quantity)
      order.status = 'complete';
    else if (status === 'REJECTED' && fillsBooked) {
      order.status = 'rejected';
      emit({
        type: 'OrderRejected',
        ...this.base(order),
        reason: record.rejectReason || 'rejected by the service',
      });
    } else if (status === 'CANCELED' && fillsBooked) {
      order.status = 'cancelled';
      emit({ type: 'OrderCancelled', ...this.base(order), filledQuantity: order.filledQuantity });
    }
  }

  private applyFills(order: TrackedOrder, trades: readonly TradeBookRecord[]): void {
    const fresh = trades
      .filter((t) => !order.fills.has(t.fillID))
      .sort((a, b) => Number(a.fillShares) - Number(b.fillShares));
    for (const t of fresh) {
      const fillQuantity = Number(t.fillQuantity);
      const filledQuantity = order.filledQuantity + fillQuantity;
      const complete = filledQuantity >= order.quantity;
      // Booked in memory only once the journal took it: a failed write is retried next poll.
      this.options.emit({
        type: complete ? 'OrderFilled' : 'OrderPartiallyFilled',
        ...this.base(order),
        fillId: t.fillID,
        fillQuantity,
        fillPrice: parseRupees(t.fillPrice),
        filledQuantity,
        averagePrice:
          t.averagePrice === '' ? parseRupees(t.fillPrice) : parseRupees(t.averagePrice),
        quantity: order.quantity,
      });
      order.fills.add(t.fillID);
      order.filledQuantity = filledQuantity;
      if (complete) order.status = 'complete';
    }
  }
}
