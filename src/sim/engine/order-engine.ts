import type { Clock } from '../../clock/clock.ts';
import type { OrderStatus, ReportType, Variety } from '../../domain/order-params.ts';
import { fillAgainstDepth, isStopTriggered } from '../matching/fill-against-depth.ts';
import { badRequest, notFound } from '../sim-error.ts';
import { checkOrder } from './check-order.ts';
import { newSimOrder } from './new-sim-order.ts';
import { averagePriceOf, type OrderFill, type OrderParams, type SimOrder } from './sim-order.ts';
import type { VenueMarket } from './venue-market.ts';

/** Options of {@link OrderEngine}. */
export interface OrderEngineOptions {
  clock: Clock;
  market: VenueMarket;
  /** Whether a session runs at an instant (a `TradingCalendar` will do). */
  hours: { isOpen(at: number): boolean };
  /** Modifications allowed per order; default 25 (the real service's limit). */
  maxModifications?: number;
  /** First order number; ids count up from here. Default 1000000001. */
  firstOrderId?: number;
}

/**
 * When an accepted after-market order stopped waiting: its third event, after PendingNew
 * and NewAck (released at the open, rejected there, or cancelled). Not its last update,
 * which a later fill or expiry moves (and the paper broker sees a close only at its next
 * quote). -Infinity while it waits or when it was rejected at placement.
 */
function leftWaitingAt(order: SimOrder): number {
  return order.history[1]?.reportType === 'NewAck'
    ? (order.history[2]?.at ?? Number.NEGATIVE_INFINITY)
    : Number.NEGATIVE_INFINITY;
}

/** Message of an accepted cancellation (spec §3 rule 3). */
export const CANCEL_ACCEPTED = 'Cancellation request accepted';
/** Message of an accepted modification. */
export const MODIFY_ACCEPTED = 'Modification request accepted';

const WORKING: ReadonlySet<OrderStatus> = new Set(['OPEN', 'PENDING']);

/**
 * Order lifecycle and matching, free of HTTP: placement checks, PendingNew → NewAck →
 * New → Fill, resting limit orders, stop triggers, IOC, cover stop legs, modify, cancel,
 * after-market orders and end-of-session expiry. Fills go through
 * {@link fillAgainstDepth}, against whatever {@link VenueMarket} it is given, so paper
 * mode and backtests fill exactly like the simulator.
 *
 * The owner calls {@link onStep} each time market prices move, {@link onOpen} and
 * {@link onClose} at session boundaries; resting orders are checked there, so outcomes
 * do not depend on when requests arrive.
 *
 * @example
 * ```ts
 * const engine = new OrderEngine({ clock, market, hours: calendar });
 * const order = engine.place({ ...params, order: 'MKT' });
 * order.status; // 'COMPLETE' when the depth held enough
 * ```
 */
export class OrderEngine {
  private readonly clock: Clock;
  private readonly market: VenueMarket;
  private readonly hours: { isOpen(at: number): boolean };
  private readonly maxModifications: number;
  private readonly byId = new Map<string, SimOrder>();
  private readonly list: SimOrder[] = [];
  private readonly fillList: OrderFill[] = [];
  /** Released orders still OPEN, in id order: the only ones a price step can move. */
  private readonly live = new Set<SimOrder>();
  private nextOrder: number;
  private nextFill = 1;
  private fillTotal = 0;
  private releaseDue = false;

  constructor(options: OrderEngineOptions) {
    this.clock = options.clock;
    this.market = options.market;
    this.hours = options.hours;
    this.maxModifications = options.maxModifications ?? 25;
    this.nextOrder = options.firstOrderId ?? 1_000_000_001;
  }

  /**
   * Places an order at the clock's now. Returns it accepted (and possibly filled) or
   * REJECTED with a reason; `rejectReason` forces a rejection found by the caller (such
   * as a price text with more decimals than the tick allows). Throws a 400/404
   * {@link SimError} for an unknown token.
   */
  place(params: OrderParams, rejectReason?: string): SimOrder {
    const at = this.clock.now();
    const inst = this.market.instrument(params.token);
    if (inst === undefined) throw notFound(`Unknown token ${params.token}`);
    const id = String(this.nextOrder++);
    const order = newSimOrder(id, inst, params, at, undefined);
    this.byId.set(id, order);
    this.list.push(order);
    this.record(order, 'PendingNew', at);
    const reason = rejectReason ?? checkOrder(params, inst, this.market, at, this.hours.isOpen(at));
    if (reason !== undefined) {
      order.status = 'REJECTED';
      order.rejectReason = reason;
      this.record(order, 'Rejected', at);
      return order;
    }
    this.record(order, 'NewAck', at);
    if (this.hours.isOpen(at)) this.release(order, at);
    return order;
  }

  /**
   * Modifies an open or pending order. `_variety` is the request path's and is not checked
   * against the order's: the official client (pytiqs) always sends `regular`. Throws {@link SimError} (404 unknown, 400
   * otherwise) and leaves the order unchanged when the change is not allowed.
   */
  modify(id: string, _variety: Variety, changes: OrderParams): SimOrder {
    const at = this.clock.now();
    const order = this.working(id, 'modified');
    if (order.modifications >= this.maxModifications) {
      throw badRequest(
        `Order ${id} has had the maximum of ${this.maxModifications} modifications; cancel it and place a new order`,
      );
    }
    const p = order.params;
    if (changes.token !== p.token || changes.exchange !== p.exchange) {
      throw badRequest('exchange and token cannot be changed by a modification');
    }
    if (changes.transactionType !== p.transactionType) {
      throw badRequest('transactionType cannot be changed by a modification');
    }
    if (changes.quantity <= order.filled) {
      throw badRequest(
        `Quantity ${changes.quantity} must exceed the filled quantity ${order.filled}`,
      );
    }
    const next: OrderParams = { ...changes, variety: p.variety, amo: p.amo };
    if (order.parentId !== undefined && next.order !== 'SL-MKT' && next.order !== 'SL-LMT') {
      throw badRequest('The stop leg of a cover order stays a stop-loss order');
    }
    const checked = order.parentId === undefined ? next : { ...next, variety: 'regular' as const };
    const open = this.hours.isOpen(at);
    const reason = checkOrder(checked, order.instrument, this.market, at, open || p.amo);
    if (reason !== undefined) throw badRequest(reason);
    if (next.order !== p.order || next.triggerPrice !== p.triggerPrice) order.triggered = false;
    order.params = next;
    order.modifications++;
    this.record(order, 'Replaced', at);
    if (order.released) this.work(order, at);
    return order;
  }

  /**
   * Cancels an open or pending order; throws {@link SimError} otherwise. `_variety` (the
   * path's) is not checked, as for {@link modify}.
   */
  cancel(id: string, _variety: Variety): SimOrder {
    const at = this.clock.now();
    const order = this.working(id, 'cancelled');
    this.close(order, at, '');
    return order;
  }

  /** The order with this id. */
  order(id: string): SimOrder | undefined {
    return this.byId.get(id);
  }

  /** Every order, oldest first. */
  orders(): readonly SimOrder[] {
    return this.list;
  }

  /** Every fill, oldest first (since the last {@link forgetBefore}). */
  fills(): readonly OrderFill[] {
    return this.fillList;
  }

  /** How many fills there have been, forgotten ones included: a cheap "did anything fill". */
  get fillCount(): number {
    return this.fillTotal;
  }

  /**
   * Forgets what no day's book from `cutoff` on can list: final orders placed and last
   * changed before it (see {@link dayOrders}) and fills before it. A venue that lives
   * for many days (a multi-day backtest's) calls it as days pass, so its memory and
   * its book reads follow a day's orders, not the run's; the simulator keeps everything.
   * Returns the ids forgotten.
   */
  forgetBefore(cutoff: number): string[] {
    const gone: string[] = [];
    const keep = this.list.filter((o) => {
      if (WORKING.has(o.status) || o.placedAt >= cutoff || o.updatedAt >= cutoff) return true;
      this.byId.delete(o.id);
      gone.push(o.id);
      return false;
    });
    this.list.splice(0, this.list.length, ...keep);
    const firstKept = this.fillList.findIndex((f) => f.at >= cutoff);
    this.fillList.splice(0, firstKept === -1 ? this.fillList.length : firstKept);
    return gone;
  }

  /**
   * The day's order book (spec §4.2, "order book of the current trading day"), oldest
   * first: orders placed since `dayStart`, orders still working (an after-market order
   * waiting for the open), and after-market orders that went to the exchange or were
   * cancelled since then, which belong to the session they were waiting for. An earlier
   * day's final orders are left out; the engine's recovery and tracker rely on that
   * (an absence from the day's book proves nothing about an earlier day's order).
   */
  dayOrders(dayStart: number): SimOrder[] {
    // Orders are kept in placement order, so today's are a suffix of the list.
    let first = this.list.length;
    while (first > 0 && (this.list[first - 1]?.placedAt ?? 0) >= dayStart) first--;
    const earlier = this.list
      .slice(0, first)
      .filter((o) => WORKING.has(o.status) || (o.params.amo && leftWaitingAt(o) >= dayStart));
    return [...earlier, ...this.list.slice(first)];
  }

  /** Whether an order works: open on the exchange, or waiting for the open (after hours). */
  hasWorkingOrders(): boolean {
    return this.live.size > 0 || this.list.some((o) => o.status === 'PENDING');
  }

  /** The day's trade book: fills since `dayStart`, oldest first. */
  dayFills(dayStart: number): OrderFill[] {
    let first = this.fillList.length;
    while (first > 0 && (this.fillList[first - 1]?.at ?? 0) >= dayStart) first--;
    return this.fillList.slice(first);
  }

  /** A session opened: after-market orders go to the exchange at the first price step. */
  onOpen(_at: number): void {
    this.releaseDue = true;
  }

  /** A session closed: DAY orders still open expire. */
  onClose(at: number): void {
    for (const order of [...this.live]) this.close(order, at, 'Expired at market close');
  }

  /** Prices moved: release waiting AMO orders, then give every open order a chance. */
  onStep(at: number): void {
    if (this.releaseDue) {
      this.releaseDue = false;
      for (const order of this.list) {
        if (order.status !== 'PENDING' || order.released) continue;
        const reason = checkOrder(order.params, order.instrument, this.market, at, true);
        if (reason === undefined) {
          this.release(order, at);
        } else {
          order.status = 'REJECTED';
          order.rejectReason = reason;
          this.record(order, 'Rejected', at);
        }
      }
    }
    if (this.live.size > 0) for (const order of [...this.live]) this.work(order, at);
  }

  private working(id: string, verb: string): SimOrder {
    const order = this.byId.get(id);
    if (order === undefined) throw notFound(`No order ${id}`);
    if (!WORKING.has(order.status)) {
      throw badRequest(
        `Order ${id} is ${order.status}; only open or pending orders can be ${verb}`,
      );
    }
    return order;
  }

  private release(order: SimOrder, at: number): void {
    order.released = true;
    order.exchangeOrderId = String(1_100_000_000_000_000 + Number(order.id));
    order.exchangeUpdatedAt = at;
    order.status = 'OPEN';
    this.live.add(order);
    this.record(order, 'New', at);
    this.work(order, at);
  }

  /** Tries to execute an open order against the market as it is at `at`. */
  private work(order: SimOrder, at: number): void {
    if (order.status !== 'OPEN') return;
    const p = order.params;
    const touch = this.market.touched?.(order);
    if (touch !== undefined) {
      order.triggered = touch.triggered;
      if (touch.price !== undefined) this.fill(order, touch.price, p.quantity - order.filled, at);
      return;
    }
    const token = p.token;
    if (p.order === 'SL-LMT' || p.order === 'SL-MKT') {
      if (!order.triggered) {
        if (!isStopTriggered(p.transactionType, p.triggerPrice, this.market.ltp(token))) return;
        order.triggered = true;
      }
    }
    const limit = p.order === 'LMT' || p.order === 'SL-LMT' ? p.price : undefined;
    const book = this.market.depth(token);
    const buy = p.transactionType === 'B';
    const result = fillAgainstDepth(
      p.transactionType,
      buy ? book.asks : book.bids,
      p.quantity - order.filled,
      limit,
      order.instrument.lotSize,
    );
    if (result.fills.length > 0) {
      this.market.setDepth(
        token,
        buy ? { bids: book.bids, asks: result.levels } : { bids: result.levels, asks: book.asks },
      );
    }
    for (const f of result.fills) this.fill(order, f.price, f.quantity, at);
    if (order.status === 'OPEN' && p.validity === 'IOC') this.close(order, at, '');
  }

  private fill(order: SimOrder, price: number, quantity: number, at: number): void {
    order.filled += quantity;
    order.fillValue += price * quantity;
    const averagePrice = averagePriceOf(order) ?? price;
    const fill: OrderFill = {
      fillId: String(5_000_000_000 + this.nextFill++),
      orderId: order.id,
      at,
      price,
      quantity,
      filled: order.filled,
      averagePrice,
    };
    order.fills.push(fill);
    this.fillList.push(fill);
    this.fillTotal++;
    order.exchangeUpdatedAt = at;
    if (order.filled >= order.params.quantity) {
      order.status = 'COMPLETE';
      this.live.delete(order);
    }
    this.record(order, 'Fill', at);
    if (order.status === 'COMPLETE') this.spawnStopLeg(order, at);
  }

  /** Cancels what remains of `order` (by request, IOC or expiry). */
  private close(order: SimOrder, at: number, reason: string): void {
    order.status = 'CANCELED';
    this.live.delete(order);
    order.cancelQuantity = order.params.quantity - order.filled;
    order.rejectReason = reason;
    if (order.released) order.exchangeUpdatedAt = at;
    this.record(order, 'Canceled', at);
    if (reason === '') this.spawnStopLeg(order, at);
  }

  /** A cover order's main leg is done: protect what it filled with a stop-market leg. */
  private spawnStopLeg(main: SimOrder, at: number): void {
    if (main.params.variety !== 'cover' || main.parentId !== undefined) return;
    if (main.childId !== undefined || main.filled <= 0) return;
    const p = main.params;
    const leg: OrderParams = {
      ...p,
      transactionType: p.transactionType === 'B' ? 'S' : 'B',
      order: 'SL-MKT',
      validity: 'DAY',
      quantity: main.filled,
      disclosedQty: 0,
      price: 0,
      triggerPrice: p.bookLossPrice,
      amo: false,
    };
    const id = String(this.nextOrder++);
    const order = newSimOrder(id, main.instrument, leg, at, main.id);
    main.childId = id;
    this.byId.set(id, order);
    this.list.push(order);
    this.record(order, 'PendingNew', at);
    this.record(order, 'NewAck', at);
    this.release(order, at);
  }

  private record(order: SimOrder, reportType: ReportType, at: number): void {
    order.updatedAt = at;
    order.history.push({
      reportType,
      at,
      status: order.status,
      // Shared, not copied: an order's params are replaced on a modification, never changed
      // in place, so each event keeps the terms it was recorded with.
      params: order.params,
      filled: order.filled,
      averagePrice: averagePriceOf(order),
      rejectReason: order.rejectReason,
      cancelQuantity: order.cancelQuantity,
      exchangeOrderId: order.exchangeOrderId,
    });
  }
}
