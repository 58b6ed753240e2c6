import type { Logger } from 'pino';
import { type Observable, Subject, type Subscription } from 'rxjs';
import { OutcomeUnknownError } from '../api/errors/outcome-unknown-error.ts';
import { SessionError } from '../api/errors/session-error.ts';
import type { Clock } from '../clock/clock.ts';
import type {
  CancelIntent,
  ModifyIntent,
  PlaceIntent,
  RoutedIntent,
  SquareOffIntent,
} from '../strategy/intents.ts';
import type { Broker } from './broker.ts';
import { type Journal, MemoryJournal } from './journal.ts';
import type { OrderEvent } from './order-events.ts';
import { OrderTracker } from './order-tracker.ts';
import { PositionBook } from './position-book.ts';
import { checkPlace, type RiskQuote } from './risk/risk-gate.ts';
import { DEFAULT_RISK_LIMITS, type RiskLimits } from './risk/risk-limits.ts';
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
  /** Durable record of orders, fills and events; default in memory. */
  journal?: Journal;
  risk?: Partial<RiskLimits>;
  /** Last price and band of an instrument, for risk checks and marking. */
  quote?: (token: string) => RiskQuote | undefined;
  /** Modifications the service allows per order. */
  maxModifications?: number;
}

const IST_OFFSET_MS = 330 * 60_000;
const istDay = (at: number): number => Math.floor((at + IST_OFFSET_MS) / 86_400_000);

/**
 * Turns strategies' intents into orders through the broker port, and order-book
 * changes into events.
 *
 * - Every placement carries a unique tag, written to the journal before it is sent.
 * - Risk checks run before anything is sent; a denial is an `OrderDenied` event.
 * - An unknown placement outcome is resolved by finding the tag in the order book,
 *   never by sending again blindly; only a confirmed absence re-places, once.
 * - While the market is closed intents wait for the open, or go out as AMO on request.
 * - The kill switch trips at the daily loss limit: entries stop for the IST day, and
 *   with `flattenOnKill` open orders are cancelled and positions squared off.
 * - A refused session (401/403) pauses trading until {@link resume}.
 */
export class ExecutionEngine {
  readonly positions: PositionBook;
  private readonly events = new Subject<OrderEvent>();
  /** Every order event, in order. */
  readonly events$: Observable<OrderEvent> = this.events.asObservable();
  private readonly tracker: OrderTracker;
  private readonly journal: Journal;
  private readonly limits: RiskLimits;
  private readonly maxModifications: number;
  private readonly deferred: RoutedIntent[] = [];
  private deferTimer: Subscription | undefined;
  private seq = 0;
  private paused: string | undefined;
  private accepting = true;
  private killedDay: number | undefined;
  private readonly placements = new Map<number, number>();

  constructor(private readonly options: ExecutionEngineOptions) {
    this.positions = options.positions ?? new PositionBook();
    this.journal = options.journal ?? new MemoryJournal();
    this.limits = { ...DEFAULT_RISK_LIMITS, ...options.risk };
    this.maxModifications = options.maxModifications ?? 25;
    this.tracker = new OrderTracker({
      broker: options.broker,
      clock: options.clock,
      logger: options.logger,
      intervalMs: options.trackIntervalMs ?? 1_000,
      unknownGraceMs: options.unknownGraceMs ?? 10_000,
      emit: (e) => this.emit(e),
      persist: (o) => this.journal.saveOrder(o, options.clock.now()),
      onAbsent: (order) => void this.replaceAbsent(order),
      onPollError: (err) => {
        if (err instanceof SessionError) this.pause(err);
      },
      isPaused: () => this.paused !== undefined,
      afterPoll: () => this.journal.checkpoint?.(),
    });
  }

  /**
   * Crash-only start: reloads the journal, rebuilds orders and positions from it,
   * reconciles with the broker's order and trade books (emitting whatever happened
   * while down) and goes on. Placements whose outcome was never learned are found by
   * tag, or re-placed once after the grace period.
   */
  async recover(): Promise<{ orders: number; fills: number }> {
    const { orders, fills } = this.journal.load();
    const now = this.options.clock.now();
    for (const order of orders) {
      if (order.status === 'submitting') {
        order.status = 'unknown';
        order.unknownSince = now;
      }
      this.tracker.track(order);
      const day = istDay(order.placedAt);
      this.placements.set(day, (this.placements.get(day) ?? 0) + 1);
    }
    for (const f of fills)
      this.positions.applyFill(f.strategyId, f.token, f.symbol, f.side, f.quantity, f.price);
    const seqs = orders
      .map((o) => Number.parseInt(o.tag.split('-').at(-1) ?? '0', 36))
      .filter(Number.isFinite);
    this.seq = Math.max(0, ...seqs);
    if (orders.length > 0) {
      this.options.logger.info(
        { orders: orders.length, fills: fills.length },
        'journal reloaded; reconciling with the broker',
      );
      await this.tracker.poll();
    }
    return { orders: orders.length, fills: fills.length };
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
    if (this.deferred.length > 0) {
      this.options.logger.info(
        { count: this.deferred.length },
        'dropping deferred intents at stop',
      );
    }
    this.deferred.length = 0;
  }

  /** Closes the journal. */
  close(): void {
    this.journal.close();
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

  /** Whether the kill switch has tripped today. */
  get killed(): boolean {
    return this.killedDay === istDay(this.options.clock.now());
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
      await this.requestCancel(o);
    }
  }

  /**
   * Asks once to cancel an order. A failure is logged, not thrown: the order may have
   * filled or been cancelled meanwhile, and the next poll tells which.
   */
  private async requestCancel(order: TrackedOrder): Promise<void> {
    if (order.orderId === undefined || order.cancelRequested === true) return;
    order.cancelRequested = true;
    try {
      await this.options.broker.cancelOrder(order.variety, order.orderId);
    } catch (err) {
      if (err instanceof SessionError) throw err;
      this.options.logger.warn(
        { err, tag: order.tag },
        'cancel failed; the next poll will tell where the order stands',
      );
    }
  }

  /**
   * Marks positions to the latest prices and trips the kill switch when today's loss
   * reaches the limit. The kernel calls it on every summary and fill.
   */
  markAndCheck(): void {
    const quote = this.options.quote;
    if (quote !== undefined) {
      for (const p of this.positions.positions()) {
        const q = quote(p.token);
        if (q !== undefined) this.positions.mark(p.token, q.ltp);
      }
    }
    const { realised, unrealised } = this.positions.totals();
    if (this.killed || realised + unrealised > -this.limits.dailyMaxLoss) return;
    this.killedDay = istDay(this.options.clock.now());
    this.options.logger.error(
      {
        loss: -(realised + unrealised),
        limit: this.limits.dailyMaxLoss,
        flatten: this.limits.flattenOnKill,
      },
      'kill switch tripped: the daily loss limit is reached; no new entries today',
    );
    if (this.limits.flattenOnKill) void this.flattenAll();
  }

  private async flattenAll(): Promise<void> {
    await this.cancelAll();
    const strategies = new Set(
      this.positions
        .positions()
        .filter((p) => p.netQuantity !== 0)
        .map((p) => p.strategyId),
    );
    for (const strategyId of strategies) {
      await this.submit({
        kind: 'squareOff',
        id: `kill-${this.options.clock.now()}`,
        strategyId,
        reason: 'kill switch',
      });
    }
  }

  private emit(event: OrderEvent): void {
    const order =
      'tag' in event && event.tag !== ''
        ? this.tracker.byIntent(event.strategyId, event.intentId)
        : undefined;
    if (order !== undefined) this.journal.saveOrder(order, event.at);
    if (event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled') {
      if (order !== undefined) {
        const { instrument, side } = order.intent;
        const fresh = this.journal.saveFill({
          fillId: event.fillId,
          tag: event.tag,
          strategyId: event.strategyId,
          token: instrument.token,
          symbol: instrument.symbol,
          side,
          quantity: event.fillQuantity,
          price: event.fillPrice,
          at: event.at,
        });
        if (fresh) {
          this.positions.applyFill(
            event.strategyId,
            instrument.token,
            instrument.symbol,
            side,
            event.fillQuantity,
            event.fillPrice,
          );
        }
      }
    }
    this.journal.saveEvent(event);
    this.events.next(event);
    if (event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled') this.markAndCheck();
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
    return `${strategyId}-${this.options.clock.now().toString(36)}-${this.seq.toString(36)}`;
  }

  private positionOf(strategyId: string, token: string): number {
    return this.positions.positions(strategyId).find((p) => p.token === token)?.netQuantity ?? 0;
  }

  private async place(
    intent: PlaceIntent & { strategyId: string },
    reuse?: TrackedOrder,
    system = false,
  ): Promise<void> {
    const { clock, sessions } = this.options;
    const existing = this.tracker.byIntent(intent.strategyId, intent.id);
    // An order the service refused for an expired session was never placed: after the
    // pause it goes out under the same intent and record.
    if (existing?.sessionRefused === true && reuse === undefined) {
      delete existing.sessionRefused;
      reuse = existing;
    }
    if (existing !== undefined && reuse === undefined && !system) {
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
        this.defer(intent, 'market closed', sessions.nextOpen(now));
        return;
      }
    }
    const day = istDay(now);
    const verdict = checkPlace(
      intent,
      {
        openOrders: this.tracker.active().length,
        position: this.positionOf(intent.strategyId, intent.instrument.token),
        placementsToday: this.placements.get(day) ?? 0,
        killed: this.killed,
        quote: this.options.quote?.(intent.instrument.token),
      },
      this.limits,
    );
    if (!verdict.ok) {
      this.deny(intent, verdict.reason);
      return;
    }
    if (verdict.notes.length > 0)
      this.options.logger.info(
        { intentId: intent.id, notes: verdict.notes },
        'intent adjusted by risk',
      );
    const checked = { ...verdict.intent, strategyId: intent.strategyId };
    const tag = this.newTag(intent.strategyId);
    const request = toPlaceRequest(checked, tag, amo);
    const order: TrackedOrder = reuse ?? {
      strategyId: intent.strategyId,
      intentId: intent.id,
      tag,
      variety: checked.variety ?? 'regular',
      intent: checked,
      request,
      status: 'submitting',
      quantity: checked.quantity,
      filledQuantity: 0,
      fills: new Set(),
      replacements: 0,
      modifications: 0,
      placedAt: now,
      acceptedSeen: false,
      openedSeen: false,
      ...(system ? { system: true } : {}),
    };
    if (reuse !== undefined) {
      order.tag = tag;
      order.request = request;
      order.status = 'submitting';
      delete order.unknownSince;
    }
    this.tracker.track(order);
    // Persisted before it is sent: after a crash the tag is known and can be reconciled.
    this.journal.saveOrder(order, now);
    this.placements.set(day, (this.placements.get(day) ?? 0) + 1);
    this.emit({
      type: 'OrderSubmitted',
      strategyId: intent.strategyId,
      intentId: intent.id,
      tag,
      at: now,
      intent: checked,
    });
    try {
      const result = await this.options.broker.placeOrder(order.variety, request);
      order.orderId = result.orderNo;
      order.status = 'pending';
      this.journal.saveOrder(order, clock.now());
    } catch (err) {
      if (err instanceof OutcomeUnknownError) {
        order.status = 'unknown';
        order.unknownSince = clock.now();
        this.journal.saveOrder(order, clock.now());
        this.options.logger.warn(
          { tag, strategyId: intent.strategyId },
          'placement outcome unknown; reconciling by tag, not resending',
        );
        return;
      }
      order.status = 'rejected';
      if (err instanceof SessionError) order.sessionRefused = true;
      this.journal.saveOrder(order, clock.now());
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
    if (order.modifications >= this.maxModifications) {
      // The service refuses a 26th modification: cancel and place the changed order anew.
      this.options.logger.info(
        { tag: order.tag, modifications: order.modifications },
        'modification limit reached: cancelling and placing anew',
      );
      await this.options.broker.cancelOrder(order.variety, order.orderId);
      const remaining = (intent.quantity ?? order.quantity) - order.filledQuantity;
      if (remaining <= 0) return;
      const changed: PlaceIntent = {
        ...order.intent,
        quantity: remaining,
        ...(intent.price === undefined ? {} : { price: intent.price }),
        ...(intent.triggerPrice === undefined ? {} : { triggerPrice: intent.triggerPrice }),
        ...(intent.orderType === undefined ? {} : { orderType: intent.orderType }),
      };
      await this.place({ ...changed, strategyId: intent.strategyId }, undefined, true);
      return;
    }
    const request = toModifyRequest(order.request, intent);
    order.modifications += 1;
    this.journal.saveOrder(order, this.options.clock.now());
    await this.options.broker.modifyOrder(order.variety, order.orderId, request);
    order.request = { ...order.request, ...request };
    this.journal.saveOrder(order, this.options.clock.now());
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
    for (const o of open) await this.requestCancel(o);
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
      await this.place(
        {
          kind: 'place',
          strategyId: intent.strategyId,
          id: `${intent.id}:${p.token}`,
          instrument: source.intent.instrument,
          side: p.netQuantity > 0 ? 'S' : 'B',
          quantity: Math.abs(p.netQuantity),
          orderType: 'MKT',
          product: source.intent.product,
          reason: intent.reason ?? 'square off',
        },
        undefined,
        true,
      );
    }
  }

  private pause(err: SessionError): void {
    if (this.paused !== undefined) return;
    this.paused = 'session expired or invalid (HTTP 401/403)';
    this.options.logger.error(
      { operation: err.operation, status: err.status },
      'the access token was refused: trading is paused. Put a new token in the config or .env file and send SIGHUP, or update the watched token file; trading resumes without a restart and without losing state',
    );
  }

  private onBrokerError(intent: RoutedIntent, err: unknown): void {
    if (err instanceof SessionError) {
      this.pause(err);
      this.defer(intent, `trading paused: ${this.paused}`);
      return;
    }
    const reason = err instanceof Error ? err.message : String(err);
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
