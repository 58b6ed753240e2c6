import type { Logger } from 'pino';
import type { Clock } from '../clock/clock.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import type { Broker } from './broker.ts';
import { type BookSnapshot, type ReconcileStep, reconcile } from './reconcile.ts';
import { reconcileOrder, unchanged } from './reconcile-order.ts';
import type { TrackedOrder } from './tracked-order.ts';
import { TrackedOrders } from './tracked-orders.ts';
import { TrackerTicks } from './tracker-ticks.ts';

/** Options of {@link OrderTracker}. */
export interface OrderTrackerOptions {
  broker: Broker;
  clock: Clock;
  logger: Logger;
  /** Poll interval of the order and trade books. */
  intervalMs: number;
  /** How long an order whose placement outcome is unknown may be absent before it counts as not placed. */
  unknownGraceMs: number;
  /** Where events and order states go: the journal first, then subscribers. */
  sink: OrderSink;
  /**
   * What the books alone cannot settle: an unknown placement confirmed absent after the
   * grace period, or an earlier attempt of a re-placed order that turned up after all.
   */
  onFollowUp(step: FollowUp): Promise<void>;
  /**
   * After every poll, busy or idle (room for housekeeping off the order path), with the
   * error when the books could not be read (the engine pauses on an expired session).
   */
  afterPoll(error?: unknown): void;
  /** While true, polls are skipped (trading paused). */
  isPaused(): boolean;
}

/** Where the tracker's events and order states are recorded (the event recorder). */
interface OrderSink {
  /** Publishes an event; it must journal first. A throw means nothing was recorded. */
  emit(event: OrderEvent): void;
  /** Writes an order's new state to the journal. */
  persist(order: TrackedOrder): void;
}

/** A reconciliation step the engine acts on: a re-placement or a duplicate's cancel. */
export type FollowUp = Extract<ReconcileStep, { kind: 'absent' | 'duplicate' }>;

/**
 * Learns order state by polling the order book and the trade book (the service's push
 * channel is not in the spec) and turns changes into events: accepted, opened,
 * partially filled, filled, cancelled, rejected, modified. Fills are keyed by `fillID`,
 * so none is lost between polls or counted twice; an order becomes final only once
 * every fill the book reports has been booked. Over a broker that announces its changes
 * (the paper venue of a backtest) it polls only at the ticks that can see one.
 */
export class OrderTracker extends TrackedOrders {
  private readonly ticks: TrackerTicks;
  private inFlight: Promise<void> | undefined;
  private readOk = true;
  /** Steps the latest poll's snapshot gave (0 when it changed nothing). */
  private lastSteps = 0;

  constructor(private readonly options: OrderTrackerOptions) {
    super();
    const watch = options.broker.onBooksChanged?.bind(options.broker);
    this.ticks = new TrackerTicks({
      clock: options.clock,
      intervalMs: options.intervalMs,
      tick: () => this.poll(),
      ...(watch === undefined ? {} : { watch }),
      settled: () => this.settled(),
    });
  }

  /**
   * Whether a tick could find nothing new until the broker announces a change: the
   * latest poll read the books and changed nothing, and no order of unknown outcome
   * waits for its grace period to end.
   */
  private settled(): boolean {
    if (!this.readOk || this.lastSteps > 0) return false;
    return !this.active().some((o) => o.status === 'unknown');
  }

  /**
   * Starts polling on the clock: every `intervalMs`, or, over a broker that announces
   * its changes, only at the ticks that can see one (see {@link TrackerTicks}).
   */
  start(): void {
    this.ticks.start();
  }

  /** Stops polling; resolves once a poll under way has finished. */
  async stop(): Promise<void> {
    this.ticks.stop();
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
    });
    return this.inFlight;
  }

  private async pollOnce(): Promise<void> {
    this.lastSteps = 0;
    // What changed so far is seen now, or (with nothing to follow) concerns no order.
    this.ticks.reading();
    if (this.active().length === 0) {
      this.readOk = true;
      this.options.afterPoll();
      return;
    }
    try {
      const [orders, trades] = await Promise.all([
        this.options.broker.orderBook(),
        this.options.broker.tradeBook(),
      ]);
      this.readOk = true;
      await this.applySnapshot({ orders, trades });
    } catch (err) {
      this.readOk = false;
      this.options.afterPoll(err);
      // A refused session pauses tracking, and the pause has its own single line.
      if (!this.options.isPaused())
        this.options.logger.warn({ err }, 'order tracking poll failed; will retry');
      return;
    }
    this.options.afterPoll();
  }

  /**
   * Brings the tracked orders in line with a snapshot of the books: the pure
   * {@link reconcile} says what changed, and the steps are applied here, in order.
   */
  private async applySnapshot(snapshot: BookSnapshot): Promise<void> {
    const steps = reconcile(this.index(), snapshot, {
      now: this.options.clock.now(),
      unknownGraceMs: this.options.unknownGraceMs,
    });
    this.lastSteps = steps.length;
    for (const step of steps) {
      switch (step.kind) {
        case 'duplicate':
        case 'absent':
          await this.options.onFollowUp(step);
          break;
        case 'missing':
          await this.readHistory(step.order, step.trades);
          break;
        default:
          this.apply(step);
      }
    }
  }

  /**
   * An active order the day's book does not list (e.g. an after-market order from an
   * earlier day) is read from its own history instead.
   */
  private async readHistory(
    order: TrackedOrder,
    trades: Extract<ReconcileStep, { kind: 'missing' }>['trades'],
  ): Promise<void> {
    try {
      const [latest] = await this.options.broker.orderHistory(order.orderId ?? '');
      if (latest === undefined) return;
      if (unchanged(order, latest, trades, this.seen.get(order))) return;
      for (const step of reconcileOrder(order, latest, trades, this.options.clock.now()))
        this.apply(step);
    } catch (err) {
      this.options.logger.warn(
        { err, tag: order.tag },
        'order history unavailable; will ask again',
      );
    }
  }

  /** Applies one synchronous step: the only place reconciliation changes an order. */
  private apply(step: Exclude<ReconcileStep, { kind: 'duplicate' | 'absent' | 'missing' }>): void {
    const { order } = step;
    switch (step.kind) {
      case 'adopt':
        this.track(order);
        // The exchange placed it on our behalf: announce it like any order, so every
        // consumer of events (positions, ledgers, strategies) knows what it is.
        this.options.sink.emit(step.event);
        this.options.logger.info(
          { tag: order.tag, orderId: order.orderId, parent: step.parent.orderId },
          'following the stop leg of a cover order',
        );
        return;
      case 'found':
        order.orderId = step.orderId;
        order.status = step.status;
        this.options.logger.info(
          { tag: order.tag, orderId: step.orderId },
          'order found in the book by its tag',
        );
        return;
      case 'update':
        Object.assign(order, step.patch);
        if (step.event !== undefined) this.options.sink.emit(step.event);
        return;
      case 'fill':
        // Booked in memory only once the journal took it: a failed write is retried next poll.
        this.options.sink.emit(step.event);
        order.fills.add(step.fillId);
        order.filledQuantity = step.filledQuantity;
        if (step.complete) order.status = 'complete';
        return;
      case 'settled':
        this.options.sink.persist(order);
        this.seen.set(order, step.seen);
        return;
    }
  }
}
