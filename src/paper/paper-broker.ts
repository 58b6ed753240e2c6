import type { Logger } from 'pino';
import { catchError, firstValueFrom, of, type Subscription, timeout } from 'rxjs';
import { RefusedError } from '../api/errors/refused-error.ts';
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
import type { Clock } from '../clock/clock.ts';
import { sleep } from '../clock/sleep.ts';
import { DAY_MS, istDayStart } from '../domain/ist.ts';
import type { Variety } from '../domain/order-params.ts';
import type { Broker } from '../execution/broker.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';
import { toModifyParams } from '../sim/engine/modify-params.ts';
import { CANCEL_ACCEPTED, MODIFY_ACCEPTED, OrderEngine } from '../sim/engine/order-engine.ts';
import { toHistory } from '../sim/engine/order-records.ts';
import { toOrderParams } from '../sim/engine/to-order-params.ts';
import { formatTimeStamp } from '../sim/ist-time.ts';
import { SimError } from '../sim/sim-error.ts';
import { BarMarketView } from './bar-market-view.ts';
import { BookRecordCache } from './book-record-cache.ts';
import { BusMarketView, type InstrumentTerms } from './bus-market-view.ts';

/** How long a placement waits for the first quote of an instrument not yet followed. */
const FIRST_QUOTE_WAIT_MS = 10_000;

/** Options of {@link PaperBroker}. */
export interface PaperBrokerOptions {
  clock: Clock;
  bus: Pick<MarketFeed, 'quote$' | 'holdsChannels'>;
  hours: { isOpen(at: number): boolean };
  logger: Logger;
  /** Each order operation reaches the order engine this long after it is sent. Default 0. */
  latencyMs?: number;
  /** Fills see the book this many ticks worse a side. Default 0. */
  slippageTicks?: number;
  /**
   * Offer {@link PaperBroker.onBooksChanged}, so that the order tracker reads the books
   * after a change rather than every tick (backtests). Default false: polled.
   */
  announceChanges?: boolean;
  /**
   * `bar`: a candle replay's venue, resting limit and stop orders filling at the price
   * the bar path touched (`BarMarketView`). Default `depth`: against each quote's book.
   */
  fillModel?: 'depth' | 'bar';
  /**
   * Let go of every followed token's quotes while no order works (none open, none
   * waiting for the open), and follow them all again at the next order, when the feed
   * holds channels (`MarketFeed.holdsChannels`: a replay). Each quote of a followed
   * token is a price step and, on a recording of full quotes, a full decode: a 30-day
   * backtest spent ≈ 20% of its time there while flat. Fills are the same: a step with
   * no order working changes nothing but the session boundaries, which the next order's
   * own step sees (the tracker is told of a boundary then, not at the boundary's first
   * quote), and the book the next order meets is the newest changed quote's, or the one
   * the last fill ate into if none changed since. Default false (live paper mode polls
   * what it follows, and follows on).
   */
  releaseIdleFeeds?: boolean;
}

/**
 * Paper trading: the {@link Broker} port in process, filling orders with the simulator's
 * own order engine and fill logic (depth-aware, partial fills; limit and stop orders
 * wait for the price) against live quotes from the bus. It never sends an order.
 */
export class PaperBroker implements Broker {
  readonly market: BusMarketView;
  private readonly engine: OrderEngine;
  private readonly feeds = new Map<number, Subscription>();
  /** Tokens let go of while no order worked ({@link PaperBrokerOptions.releaseIdleFeeds}). */
  private readonly released = new Set<number>();
  /** Order operations under way: the quotes are not let go of while one is. */
  private operations = 0;
  private readonly records = new BookRecordCache();
  private readonly listeners = new Set<() => void>();
  private wasOpen: boolean;
  /** The IST day of the latest step: a new one lets the venue forget what no book lists. */
  private day = Number.NEGATIVE_INFINITY;
  /**
   * With `announceChanges`: calls `listener` each time the books change (an order
   * placed, accepted, modified, cancelled, filled, expired or released); see
   * `Broker.onBooksChanged`.
   */
  readonly onBooksChanged?: (listener: () => void) => () => void;

  constructor(private readonly options: PaperBrokerOptions) {
    const View = options.fillModel === 'bar' ? BarMarketView : BusMarketView;
    this.market = new View(options.slippageTicks ?? 0);
    this.engine = new OrderEngine({
      clock: options.clock,
      market: this.market,
      hours: options.hours,
      firstOrderId: 9_000_000_001,
    });
    this.wasOpen = options.hours.isOpen(options.clock.now());
    if (options.announceChanges === true) {
      this.onBooksChanged = (listener) => {
        this.listeners.add(listener);
        return () => this.listeners.delete(listener);
      };
    }
  }

  /** Describes an instrument's lot and tick, learned from an intent. */
  describe(token: number, terms: InstrumentTerms): void {
    if (this.market.instrument(token) === undefined) this.market.describe(token, terms);
  }

  async placeOrder(variety: Variety, request: PlaceOrderRequest): Promise<PlaceOrderResult> {
    const token = Number(request.token);
    this.describe(token, {
      exchange: request.exchange,
      symbol: request.symbol,
      lotSize: 1,
      tick: 5,
    });
    this.operations += 1;
    try {
      this.follow(token);
      if (!this.market.has(token)) await this.firstQuote(token);
      await this.latency();
      return this.call('placeOrder', true, () => {
        const { params, reason } = toOrderParams(variety, request, (t) =>
          this.market.instrument(t),
        );
        const noData = this.market.has(token) ? undefined : `no market data yet for token ${token}`;
        const order = this.engine.place(params, reason ?? noData);
        return { orderNo: order.id, requestTime: formatTimeStamp(order.placedAt) };
      });
    } finally {
      this.operations -= 1;
    }
  }

  async modifyOrder(
    variety: Variety,
    orderId: string,
    request: ModifyOrderRequest,
  ): Promise<MessageResult> {
    await this.latency();
    return this.call('modifyOrder', true, () => {
      // As the simulator reads a modification: the order's own variety, its stop kept when
      // the request leaves it empty (pytiqs modifies cover orders at the regular path).
      const { params, reason } = toModifyParams(this.engine.order(orderId), variety, request, (t) =>
        this.market.instrument(t),
      );
      if (reason !== undefined) throw new SimError(400, 'BadRequestError', reason);
      this.engine.modify(orderId, variety, params);
      return { message: MODIFY_ACCEPTED };
    });
  }

  async cancelOrder(variety: Variety, orderId: string): Promise<MessageResult> {
    await this.latency();
    return this.call('cancelOrder', true, () => {
      this.engine.cancel(orderId, variety);
      return { message: CANCEL_ACCEPTED };
    });
  }

  async orderHistory(orderId: string): Promise<OrderHistoryRecord[]> {
    return this.call('orderHistory', false, () => {
      const order = this.engine.order(orderId);
      if (order === undefined) throw new SimError(404, 'NotFoundError', `No order ${orderId}`);
      return toHistory(order);
    });
  }

  /**
   * The day's order book, as the service and the simulator keep it
   * ({@link OrderEngine.dayOrders}): a run over several days does not list an earlier
   * day's final orders. Newest first.
   */
  async orderBook(): Promise<OrderBookRecord[]> {
    return this.engine
      .dayOrders(istDayStart(this.options.clock.now()))
      .map((o) => this.records.order(o))
      .reverse();
  }

  /** The day's trade book: today's fills, newest first. */
  async tradeBook(): Promise<TradeBookRecord[]> {
    const out: TradeBookRecord[] = [];
    for (const fill of this.engine.dayFills(istDayStart(this.options.clock.now()))) {
      const order = this.engine.order(fill.orderId);
      if (order !== undefined) out.push(this.records.trade(order, fill));
    }
    return out.reverse();
  }

  /** Stops following quotes. */
  close(): void {
    for (const s of this.feeds.values()) s.unsubscribe();
    this.feeds.clear();
    this.released.clear();
  }

  /** The configured order latency, on the clock (none: no wait, not even a tick). */
  private async latency(): Promise<void> {
    const ms = this.options.latencyMs ?? 0;
    if (ms > 0) await sleep(this.options.clock, ms);
  }

  /** Waits (on the clock) for the first full quote of a newly followed token. */
  private async firstQuote(token: number): Promise<void> {
    await firstValueFrom(
      this.options.bus.quote$(token, 'full').pipe(
        timeout({ first: FIRST_QUOTE_WAIT_MS, scheduler: this.options.clock.scheduler }),
        catchError(() => of(undefined)),
      ),
    );
  }

  /**
   * Follows full quotes of a token: each one is a price step for resting orders. Tokens
   * let go of while idle are followed again first, as they never stopped being.
   */
  private follow(token: number): void {
    for (const t of this.released) this.subscribe(t, true);
    this.released.clear();
    if (!this.feeds.has(token)) this.subscribe(token, false);
  }

  /**
   * One token's feed. Followed `again` (let go of while idle, held), the feed gives a
   * quote at once only if one changed since: it becomes the book, with no price step, as
   * following on would have stepped on each quote with nothing working; otherwise the
   * book stays as the last fill left it, as it would have.
   */
  private subscribe(token: number, again: boolean): void {
    const releasing = this.options.releaseIdleFeeds === true && this.options.bus.holdsChannels;
    let subscribing = true;
    const feed = this.options.bus
      .quote$(token, 'full', releasing ? { held: true } : undefined)
      .subscribe((q) => {
        if (subscribing && again) {
          this.market.update(q.quote);
          return;
        }
        this.market.update(q.quote);
        if (this.step()) this.changed();
        if (releasing && !subscribing && this.operations === 0 && !this.engine.hasWorkingOrders())
          this.release();
      });
    subscribing = false;
    this.feeds.set(token, feed);
  }

  /** Lets go of every feed while no order works; the next order follows them again. */
  private release(): void {
    for (const [token, feed] of this.feeds) {
      feed.unsubscribe();
      this.released.add(token);
    }
    this.feeds.clear();
  }

  /**
   * A price step: session boundaries, then resting orders. Returns whether the books
   * may have changed: a boundary (expiry at the close, after-market orders released at
   * the open) or a fill; a step between them only fills (an IOC order never rests).
   */
  private step(): boolean {
    const now = this.options.clock.now();
    this.forgetEarlierDays(now);
    const open = this.options.hours.isOpen(now);
    const boundary = open !== this.wasOpen;
    if (open && !this.wasOpen) this.engine.onOpen(now);
    if (!open && this.wasOpen) this.engine.onClose(now);
    this.wasOpen = open;
    if (!open) return boundary;
    const fills = this.engine.fillCount;
    this.engine.onStep(now);
    return boundary || this.engine.fillCount !== fills;
  }

  /**
   * On the first step of each IST day, forgets the orders and fills no day's book can
   * list any more: final orders last changed before yesterday (a day's margin, so an
   * order that ended at a day's edge is still there for the tracker's next read of its
   * history), and their cached records. A multi-day run's venue then holds about two
   * days of orders instead of the whole run's, and its book reads stay a day's size.
   */
  private forgetEarlierDays(now: number): void {
    const day = istDayStart(now);
    if (day === this.day) return;
    this.day = day;
    for (const id of this.engine.forgetBefore(day - DAY_MS)) this.records.forget(id);
  }

  /** Tells the listeners (if any) that the books changed. */
  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /**
   * Runs an engine call; the simulator's refusals become the client's typed error. An
   * order operation (`mutates`) counts as a change whatever its outcome.
   */
  private call<T>(operation: string, mutates: boolean, run: () => T): T {
    let moved = false;
    try {
      moved = this.step();
      return run();
    } catch (err) {
      if (err instanceof SimError) {
        throw new RefusedError(
          `${operation}: refused by the paper broker (${err.errorCode}): ${err.message}`,
          {
            operation,
            status: err.status,
            errorCode: err.errorCode,
            serviceMessage: err.message,
          },
        );
      }
      throw err;
    } finally {
      if (moved || mutates) this.changed();
    }
  }
}
