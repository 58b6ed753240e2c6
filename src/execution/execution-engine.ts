import type { Logger } from 'pino';
import { type Observable, Subject, type Subscription } from 'rxjs';
import { OutcomeUnknownError } from '../api/errors/outcome-unknown-error.ts';
import { SessionError } from '../api/errors/session-error.ts';
import { TiqsError } from '../api/errors/tiqs-error.ts';
import type { Clock } from '../clock/clock.ts';
import type {
  CancelIntent,
  ModifyIntent,
  PlaceIntent,
  RoutedIntent,
  SquareOffIntent,
} from '../strategy/intents.ts';
import type { Broker } from './broker.ts';
import type { OrderEvent } from './order-events.ts';
import { OrderTracker } from './order-tracker.ts';
import { PositionBook } from './position-book.ts';
import { isFinal, type TrackedOrder } from './tracked-order.ts';
import { toModifyRequest, toPlaceRequest } from './wire-order.ts';

/** When the market is open; the trading calendar satisfies it. */
export interface SessionGate {
  isOpen(at: number): boolean;
  nextOpen(after: number): number | undefined;
}

/** Options of {@link ExecutionEngine}. */
export interface ExecutionEngineOptions {
  broker: Broker;
  clock: Clock;
  logger: Logger;
  /** The calendar; `undefined` means none could be loaded, and nothing is sent. */
  sessions: SessionGate | undefined;
  trackIntervalMs?: number;
  /** Grace before an unknown placement that is absent from the book counts as not placed. */
  unknownGraceMs?: number;
  positions?: PositionBook;
}

/**
 * Turns strategies' intents into orders through the broker port, and order-book
 * changes into events. Every placement carries a unique tag; an unknown outcome is
 * resolved by finding the tag in the order book, never by sending again blindly.
 */
export class ExecutionEngine {
  readonly positions: PositionBook;
  private readonly events = new Subject<OrderEvent>();
  /** Every order event, in order. */
  readonly events$: Observable<OrderEvent> = this.events.asObservable();
  private readonly tracker: OrderTracker;
  private readonly deferred: RoutedIntent[] = [];
  private deferTimer: Subscription | undefined;
  private seq = 0;
  private paused: string | undefined;
  private accepting = true;

  constructor(private readonly options: ExecutionEngineOptions) {
    this.positions = options.positions ?? new PositionBook();
    this.tracker = new OrderTracker({
      broker: options.broker,
      clock: options.clock,
      logger: options.logger,
      intervalMs: options.trackIntervalMs ?? 1_000,
      unknownGraceMs: options.unknownGraceMs ?? 10_000,
      emit: (e) => this.emit(e),
      onAbsent: (order) => void this.replaceAbsent(order),
    });
  }

  /** Starts tracking orders. */
  start(): void {
    this.tracker.start();
  }

  /** Stops taking intents and tracking; deferred intents are dropped with a log line. */
  stop(): void {
    this.accepting = false;
    this.tracker.stop();
    this.deferTimer?.unsubscribe();
    if (this.deferred.length > 0)
      this.options.logger.info(
        { count: this.deferred.length },
        'dropping deferred intents at stop',
      );
    this.deferred.length = 0;
  }

  /** Orders of one strategy, or all. */
  orders(strategyId?: string): TrackedOrder[] {
    return this.tracker
      .all()
      .filter((o) => strategyId === undefined || o.strategyId === strategyId);
  }

  /** Runs one tracking poll now. */
  poll(): Promise<void> {
    return this.tracker.poll();
  }

  /** Why trading is paused (e.g. an expired session), or undefined. */
  get pausedReason(): string | undefined {
    return this.paused;
  }

  /** Resumes after a pause, e.g. once a fresh token is in place. */
  resume(): void {
    if (this.paused === undefined) return;
    this.options.logger.info({ reason: this.paused }, 'trading resumed');
    this.paused = undefined;
    this.flushDeferred();
  }

  /** Takes one intent. Outcomes arrive as events; this never throws for expected ones. */
  async submit(intent: RoutedIntent): Promise<void> {
    if (!this.accepting) return;
    if (this.paused !== undefined) {
      this.defer(intent, `trading paused: ${this.paused}`);
      return;
    }
    try {
      switch (intent.kind) {
        case 'place':
          await this.place(intent);
          break;
        case 'modify':
          await this.modify(intent);
          break;
        case 'cancel':
          await this.cancel(intent);
          break;
        case 'squareOff':
          await this.squareOff(intent);
          break;
      }
    } catch (err) {
      this.onBrokerError(intent, err);
    }
  }

  /** Cancels every open order (shutdown, kill switch). */
  async cancelAll(strategyId?: string): Promise<void> {
    for (const o of this.tracker.active()) {
      if (strategyId !== undefined && o.strategyId !== strategyId) continue;
      if (o.orderId === undefined) continue;
      try {
        await this.options.broker.cancelOrder(o.variety, o.orderId);
      } catch (err) {
        this.options.logger.warn({ err, tag: o.tag }, 'cancel failed');
      }
    }
  }

  private emit(event: OrderEvent): void {
    if (event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled') {
      const order = this.tracker.byIntent(event.strategyId, event.intentId);
      if (order !== undefined) {
        this.positions.applyFill(
          event.strategyId,
          order.intent.instrument.token,
          order.intent.instrument.symbol,
          order.intent.side,
          event.fillQuantity,
          event.fillPrice,
        );
      }
    }
    this.events.next(event);
  }

  private deny(intent: RoutedIntent, reason: string): void {
    this.options.logger.warn(
      { strategyId: intent.strategyId, intentId: intent.id, reason },
      'intent denied',
    );
    this.emit({
      type: 'OrderDenied',
      strategyId: intent.strategyId,
      intentId: intent.id,
      at: this.options.clock.now(),
      intent,
      reason,
    });
  }

  private defer(intent: RoutedIntent, reason: string, until?: number): void {
    this.deferred.push(intent);
    this.emit({
      type: 'IntentDeferred',
      strategyId: intent.strategyId,
      intentId: intent.id,
      at: this.options.clock.now(),
      intent,
      reason,
      ...(until === undefined ? {} : { until }),
    });
    if (until !== undefined && this.deferTimer === undefined) {
      this.deferTimer = this.options.clock.scheduler.schedule(() => {
        this.deferTimer = undefined;
        this.flushDeferred();
      }, until - this.options.clock.now());
    }
  }

  private flushDeferred(): void {
    const queued = this.deferred.splice(0);
    for (const intent of queued) void this.submit(intent);
  }

  private newTag(strategyId: string): string {
    this.seq += 1;
    return `${strategyId}-${this.options.clock.now().toString(36)}${this.seq.toString(36)}`;
  }

  private async place(
    intent: PlaceIntent & { strategyId: string },
    reuse?: TrackedOrder,
  ): Promise<void> {
    const { clock, sessions } = this.options;
    if (this.tracker.byIntent(intent.strategyId, intent.id) !== undefined && reuse === undefined) {
      this.deny(intent, `intent id "${intent.id}" was already used`);
      return;
    }
    if (sessions === undefined) {
      this.deny(
        intent,
        'no trading calendar: the service is unreachable and no stored copy exists',
      );
      return;
    }
    const now = clock.now();
    let amo = false;
    if (!sessions.isOpen(now)) {
      if (intent.afterHours === 'amo') amo = true;
      else {
        const next = sessions.nextOpen(now);
        this.defer(intent, 'market closed', next);
        return;
      }
    }
    const tag = this.newTag(intent.strategyId);
    const request = toPlaceRequest(intent, tag, amo);
    const order: TrackedOrder = reuse ?? {
      strategyId: intent.strategyId,
      intentId: intent.id,
      tag,
      variety: intent.variety ?? 'regular',
      intent,
      request,
      status: 'submitting',
      quantity: intent.quantity,
      filledQuantity: 0,
      fills: new Set(),
      replacements: 0,
      acceptedSeen: false,
      openedSeen: false,
    };
    if (reuse !== undefined) {
      order.tag = tag;
      order.request = request;
      order.status = 'submitting';
      delete order.unknownSince;
    }
    this.tracker.track(order);
    this.emit({
      type: 'OrderSubmitted',
      strategyId: intent.strategyId,
      intentId: intent.id,
      tag,
      at: now,
      intent,
    });
    try {
      const result = await this.options.broker.placeOrder(order.variety, request);
      order.orderId = result.orderNo;
      order.status = 'pending';
    } catch (err) {
      if (err instanceof OutcomeUnknownError) {
        order.status = 'unknown';
        order.unknownSince = clock.now();
        this.options.logger.warn(
          { tag, strategyId: intent.strategyId },
          'placement outcome unknown; reconciling by tag, not resending',
        );
        return;
      }
      order.status = 'rejected';
      throw err;
    }
  }

  private async replaceAbsent(order: TrackedOrder): Promise<void> {
    if (order.replacements >= 1) {
      order.status = 'rejected';
      this.emit({
        type: 'OrderRejected',
        strategyId: order.strategyId,
        intentId: order.intentId,
        tag: order.tag,
        at: this.options.clock.now(),
        reason: 'placement outcome unknown twice; giving up',
      });
      return;
    }
    order.replacements += 1;
    this.options.logger.warn(
      { tag: order.tag, strategyId: order.strategyId, intentId: order.intentId },
      'order with unknown outcome is absent from the book after the grace period; placing it once more under the same intent',
    );
    try {
      await this.place({ ...order.intent, strategyId: order.strategyId }, order);
    } catch (err) {
      this.onBrokerError({ ...order.intent, strategyId: order.strategyId }, err);
    }
  }

  private async modify(intent: ModifyIntent & { strategyId: string }): Promise<void> {
    const order = this.tracker.byIntent(intent.strategyId, intent.target);
    if (order === undefined || order.orderId === undefined || isFinal(order.status)) {
      this.deny(intent, `no open order for intent "${intent.target}"`);
      return;
    }
    const request = toModifyRequest(order.request, intent);
    await this.options.broker.modifyOrder(order.variety, order.orderId, request);
    order.request = { ...order.request, ...request };
  }

  private async cancel(intent: CancelIntent & { strategyId: string }): Promise<void> {
    const order = this.tracker.byIntent(intent.strategyId, intent.target);
    if (order === undefined || order.orderId === undefined || isFinal(order.status)) {
      this.deny(intent, `no open order for intent "${intent.target}"`);
      return;
    }
    await this.options.broker.cancelOrder(order.variety, order.orderId);
  }

  private async squareOff(intent: SquareOffIntent & { strategyId: string }): Promise<void> {
    const open = this.tracker
      .active()
      .filter(
        (o) =>
          o.strategyId === intent.strategyId &&
          (intent.token === undefined || o.intent.instrument.token === intent.token),
      );
    for (const o of open) {
      if (o.orderId !== undefined) await this.options.broker.cancelOrder(o.variety, o.orderId);
    }
    const positions = this.positions
      .positions(intent.strategyId)
      .filter(
        (p) => p.netQuantity !== 0 && (intent.token === undefined || p.token === intent.token),
      );
    for (const p of positions) {
      const source = this.tracker
        .all()
        .find((o) => o.strategyId === intent.strategyId && o.intent.instrument.token === p.token);
      if (source === undefined) continue;
      await this.place({
        kind: 'place',
        strategyId: intent.strategyId,
        id: `${intent.id}:${p.token}`,
        instrument: source.intent.instrument,
        side: p.netQuantity > 0 ? 'S' : 'B',
        quantity: Math.abs(p.netQuantity),
        orderType: 'MKT',
        product: source.intent.product,
        reason: intent.reason ?? 'square off',
      });
    }
  }

  private onBrokerError(intent: RoutedIntent, err: unknown): void {
    if (err instanceof SessionError) {
      this.paused = 'session expired or invalid (HTTP 401/403)';
      this.options.logger.error(
        'the access token was refused: trading is paused. Put a new token in the config or env file and send SIGHUP, or update the watched token file; trading resumes without a restart',
      );
      this.defer(intent, `trading paused: ${this.paused}`);
      return;
    }
    const reason =
      err instanceof TiqsError ? err.message : err instanceof Error ? err.message : String(err);
    if (intent.kind === 'place') {
      const order = this.tracker.byIntent(intent.strategyId, intent.id);
      this.emit({
        type: 'OrderRejected',
        strategyId: intent.strategyId,
        intentId: intent.id,
        tag: order?.tag ?? '',
        at: this.options.clock.now(),
        reason,
      });
      return;
    }
    this.deny(intent, reason);
  }
}
