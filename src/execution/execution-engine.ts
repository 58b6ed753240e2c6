import type { Logger } from 'pino';
import { type Observable, Subject, type Subscription } from 'rxjs';
import { OutcomeUnknownError } from '../api/errors/outcome-unknown-error.ts';
import { SessionError } from '../api/errors/session-error.ts';
import type { OrderBookRecord } from '../api/schemas/order-records.ts';
import type { Clock } from '../clock/clock.ts';
import { sleep } from '../clock/sleep.ts';
import type {
  CancelIntent,
  ModifyIntent,
  PlaceIntent,
  RoutedIntent,
  SquareOffIntent,
} from '../strategy/intents.ts';
import type { Broker } from './broker.ts';
import { cancelAtStop } from './cancel-at-stop.ts';
import { type Journal, MemoryJournal } from './journal.ts';
import type { OrderEvent } from './order-events.ts';
import { OrderTracker } from './order-tracker.ts';
import { PositionBook } from './position-book.ts';
import { checkPlace, type RiskQuote } from './risk/risk-gate.ts';
import { DEFAULT_RISK_LIMITS, type RiskLimits } from './risk/risk-limits.ts';
import { runShutdown, type ShutdownReport } from './run-shutdown.ts';
import type { ShutdownPolicy } from './shutdown-policy.ts';
import { isFinal, type TrackedOrder } from './tracked-order.ts';
import { untilAborted } from './until-aborted.ts';
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
  /**
   * The calendar, or a getter of the current one; `undefined` means none could be
   * loaded, and nothing is sent.
   */
  sessions: SessionGate | undefined | (() => SessionGate | undefined);
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
  /**
   * Told when the service refuses the session (401/403) and trading pauses. With it,
   * the engine logs no line of its own: the kernel's one notice speaks for every
   * component. Without it, the engine logs the remedy itself.
   */
  onSessionRefused?: (err: SessionError) => void;
  /**
   * How long {@link ExecutionEngine.recover} waits for the broker's books before it
   * returns and lets reconciliation finish in the background. Default 5 000 ms.
   */
  recoverWaitMs?: number;
}

/** Options of {@link ExecutionEngine.shutdown}. */
export interface ShutdownOptions {
  /** Aborts when the stop's budget is spent; default: no limit. */
  signal?: AbortSignal;
  /** Between re-reads of the book while cancels and exits settle. Default 500 ms. */
  retryMs?: number;
}

const IST_OFFSET_MS = 330 * 60_000;
const istDay = (at: number): number => Math.floor((at + IST_OFFSET_MS) / 86_400_000);
/** With no known next open (no calendar yet), deferred intents look again this often. */
const RECHECK_MS = 60_000;
const KILL_META = 'killSwitch';

/**
 * Turns strategies' intents into orders through the broker port, and order-book
 * changes into events.
 *
 * - Every placement carries a unique tag, written to the journal before it is sent.
 * - Risk checks run before anything is sent; a denial is an `OrderDenied` event.
 * - An unknown placement outcome is resolved by finding the tag in the order book,
 *   never by sending again blindly; only a confirmed absence the same day re-places,
 *   once, and a late sighting of the first attempt is cancelled as a duplicate.
 * - While the market is closed intents wait for the open, or go out as AMO on request.
 * - The kill switch trips when the day's loss reaches the limit: entries stop for the
 *   IST day, and with `flattenOnKill` open orders are cancelled and positions closed.
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
  /** The journal is closed: late answers are no longer written (the next start reconciles). */
  private closed = false;
  /** IST day the kill switch tripped on, and each day's starting PnL (persisted). */
  private kill: { day: number | undefined; baselines: Record<number, number> } = {
    day: undefined,
    baselines: {},
  };
  private readonly placements = new Map<number, number>();
  private readonly submitting = new Set<Promise<void>>();
  /**
   * The journal's orders are not yet reconciled with the broker's books (start-up with
   * a silent or failing service): only cancels go out, other intents wait.
   */
  private unreconciled = false;
  /** Attempts a stop counted as not placed (absent from the book past the grace). */
  private readonly notPlacedAtStop: TrackedOrder[] = [];

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
      persist: (o) => this.persist(o),
      onAbsent: (order) => this.replaceAbsent(order),
      onDuplicate: (order, record) => this.cancelDuplicate(order, record),
      onPollError: (err) => {
        if (err instanceof SessionError) this.pause(err);
      },
      isPaused: () => this.paused !== undefined,
      afterPoll: () => {
        // A poll the stop's budget gave up on may end after the journal is closed.
        if (!this.closed) this.journal.checkpoint?.();
        if (this.unreconciled && this.tracker.lastReadOk) this.reconciled();
      },
    });
  }

  /**
   * Crash-only start: reloads the journal, rebuilds orders and positions from it,
   * reconciles with the broker's order and trade books (emitting whatever happened
   * while down) and goes on. Placements whose outcome was never learned are found by
   * tag, or re-placed once (the same day only) after the grace period.
   */
  async recover(): Promise<{ orders: number; fills: number }> {
    const { orders, fills } = this.journal.load();
    const now = this.options.clock.now();
    for (const order of orders) {
      if (order.status === 'submitting') {
        order.status = 'unknown';
        order.unknownSince = now;
      }
      if (order.status !== 'replaced') this.tracker.track(order);
      if (order.system !== true) {
        const day = istDay(order.placedAt);
        this.placements.set(day, (this.placements.get(day) ?? 0) + 1);
      }
    }
    for (const f of fills)
      this.positions.applyFill(f.strategyId, f.token, f.symbol, f.side, f.quantity, f.price);
    const seqs = orders
      .map((o) => Number.parseInt(o.tag.split(/[-/]/).at(-1) ?? '0', 36))
      .filter(Number.isFinite);
    this.seq = Math.max(0, ...seqs);
    const kill = this.journal.getMeta(KILL_META);
    if (kill !== undefined) this.kill = JSON.parse(kill) as typeof this.kill;
    if (orders.length > 0) {
      this.options.logger.info(
        { orders: orders.length, fills: fills.length },
        'journal reloaded; reconciling with the broker',
      );
      // Until the books are read, what happened while down is unknown: only cancels go
      // out (see handle). Start-up waits a few seconds at most, so that a silent service
      // is reported at once and the strategies, quotes and tracking run meanwhile.
      this.unreconciled = true;
      const waitMs = this.options.recoverWaitMs ?? 5_000;
      const timer = new AbortController();
      const done = await Promise.race([
        this.tracker.poll().then(() => true),
        sleep(this.options.clock, waitMs, timer.signal).then(
          () => false,
          () => false,
        ),
      ]);
      timer.abort();
      if (this.unreconciled) {
        this.options.logger.warn(
          { orders: orders.length, waitedMs: done ? undefined : waitMs },
          done
            ? "the broker's books could not be read at start: reconciliation goes on in the " +
                'background (the order tracker polls until it succeeds); until then only ' +
                'cancels go out, other intents wait'
            : `the broker has not answered within ${waitMs / 1_000} s at start: reconciliation ` +
                'goes on in the background (the order tracker polls until it succeeds); until ' +
                'then only cancels go out, other intents wait',
        );
      }
    }
    return { orders: orders.length, fills: fills.length };
  }

  /** The first complete read of the books after a restart: intents held for it go out. */
  private reconciled(): void {
    this.unreconciled = false;
    if (this.deferred.length === 0) return;
    this.options.logger.info(
      { deferred: this.deferred.length },
      'reconciled with the broker: intents held for it go out now',
    );
    if (this.paused === undefined) this.flushDeferred();
  }

  /** Starts tracking orders. */
  start(): void {
    this.tracker.start();
  }

  /** Stops taking intents and tracking; waits for a poll under way. */
  async stop(): Promise<void> {
    this.stopAccepting();
    await Promise.allSettled([...this.submitting]);
    await this.tracker.stop();
  }

  /**
   * Takes no more intents and drops the deferred ones; returns what the stop leaves
   * undone in words (a dropped placement or square-off, an exit included, is not done).
   */
  private stopAccepting(): string[] {
    this.accepting = false;
    this.deferTimer?.unsubscribe();
    this.deferTimer = undefined;
    const dropped = this.deferred.splice(0);
    for (const intent of dropped) {
      this.options.logger.warn(
        { strategyId: intent.strategyId, intentId: intent.id, kind: intent.kind },
        'stopping: a deferred intent is dropped, never sent',
      );
    }
    const undone = dropped.filter((i) => i.kind === 'place' || i.kind === 'squareOff');
    return undone.length === 0
      ? []
      : [
          `deferred intent(s) dropped at the stop, never sent: ${undone
            .map((i) => `${i.strategyId}/${i.id} (${i.kind})`)
            .join(', ')}`,
        ];
  }

  /**
   * Stops for good under a shutdown policy, within the budget of `options.signal`:
   * takes no more intents (deferred ones are dropped, and `unfinished` lists dropped
   * placements and square-offs), waits for placements under way,
   * cancels per the policy and verifies against the book, squares off for `flatten`,
   * stops tracking, and reports what is still open at the broker. See
   * {@link runShutdown}.
   */
  async shutdown(policy: ShutdownPolicy, options: ShutdownOptions = {}): Promise<ShutdownReport> {
    const signal = options.signal ?? new AbortController().signal;
    const dropped = this.stopAccepting();
    const stopped = this.tracker.stop();
    const { clock } = this.options;
    const report = await runShutdown(
      {
        logger: this.options.logger,
        inFlight: () => this.submitting.size,
        settleSubmissions: () => Promise.allSettled([...this.submitting]),
        readBooks: async () => {
          await this.tracker.poll();
          return this.tracker.lastReadOk;
        },
        active: () => this.tracker.active(),
        netPosition: (strategyId, token) => this.exposureOf(strategyId, token).position,
        parentFilled: (leg) => {
          const parent = this.tracker.byIntent(leg.strategyId, leg.intentId.replace(/\/stop$/, ''));
          return parent === undefined || parent === leg
            ? 0
            : Math.max(parent.filledQuantity, parent.bookFilledQuantity ?? 0);
        },
        positions: () => this.positions.positions(),
        notPlaced: () => [...this.notPlacedAtStop],
        cancel: (order, s) =>
          cancelAtStop(this.options.broker, this.options.logger, order, s, (err) =>
            this.pause(err),
          ),
        squareOff: (strategyId, token, id) =>
          this.squareOff({ kind: 'squareOff', id, strategyId, token, reason: 'shutdown' }),
        wait: (ms, s) => sleep(clock, ms, s).catch(() => undefined),
      },
      policy,
      { signal, retryMs: options.retryMs ?? 500, now: () => clock.now() },
    );
    await untilAborted(stopped, signal);
    // A dropped exit or square-off is as undone as an unconfirmed cancel: exit 5.
    report.unfinished.push(...dropped);
    return report;
  }

  /** Closes the journal; answers arriving later are not written. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.journal.close();
  }

  /** Orders of one strategy, or all. */
  orders(strategyId?: string): TrackedOrder[] {
    return this.tracker
      .all()
      .filter((o) => strategyId === undefined || o.strategyId === strategyId);
  }

  /** Runs one tracking poll now (or waits for the one under way). */
  poll(): Promise<void> {
    return this.tracker.poll();
  }

  /** Why trading is paused (e.g. an expired session), or undefined. */
  get pausedReason(): string | undefined {
    return this.paused;
  }

  /** Whether the kill switch has tripped today. */
  get killed(): boolean {
    return this.kill.day === istDay(this.options.clock.now());
  }

  /** Resumes after a pause, e.g. once a fresh token is in place. */
  resume(): void {
    if (this.paused === undefined) return;
    // With a session notifier, the kernel says it once for every component.
    if (this.options.onSessionRefused === undefined)
      this.options.logger.info({ reason: this.paused }, 'trading resumed');
    this.paused = undefined;
    this.flushDeferred();
  }

  /** Sends deferred intents again, e.g. once a calendar has loaded. */
  retryDeferred(): void {
    if (this.paused === undefined) this.flushDeferred();
  }

  /** Takes one intent. Outcomes arrive as events; this never throws for expected ones. */
  submit(intent: RoutedIntent): Promise<void> {
    if (!this.accepting) return Promise.resolve();
    // Stop waits for submissions under way, so none writes to a closed journal.
    const work = this.handle(intent).finally(() => this.submitting.delete(work));
    this.submitting.add(work);
    return work;
  }

  private async handle(intent: RoutedIntent): Promise<void> {
    // Checked before the pause and reconciliation guards: a cancel goes out at once
    // while reconciling, and would find no order for a placement still waiting.
    if ((intent.kind === 'cancel' || intent.kind === 'modify') && this.actOnDeferred(intent))
      return;
    if (this.paused !== undefined) {
      this.defer(intent, `trading paused: ${this.paused}`);
      return;
    }
    if (this.unreconciled && intent.kind !== 'cancel') {
      // An order on unreconciled state could double a position that filled while down,
      // or "close" one the broker already closed; a cancel is safe either way.
      this.defer(intent, 'reconciling with the broker after a restart');
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

  /**
   * A cancel or modify whose target is still deferred acts on the deferred intent, not
   * at the broker (where there is no order yet): a cancel withdraws the placement (an
   * `OrderDenied` event says so), a modify changes it before it goes out. One whose
   * target has a deferred cancel or modify waits behind it, in order. True when taken.
   */
  private actOnDeferred(intent: (CancelIntent | ModifyIntent) & { strategyId: string }): boolean {
    const concerns = (i: RoutedIntent): boolean =>
      i.strategyId === intent.strategyId &&
      ((i.kind === 'place' && i.id === intent.target) ||
        ((i.kind === 'cancel' || i.kind === 'modify') && i.target === intent.target));
    const at = this.deferred.findIndex((i) => i.kind === 'place' && concerns(i));
    const waiting = this.deferred[at];
    if (waiting?.kind === 'place') {
      if (intent.kind === 'cancel') {
        this.deferred.splice(at, 1);
        this.options.logger.info(
          { strategyId: intent.strategyId, intentId: intent.id, target: intent.target },
          'cancel of a deferred placement: withdrawn before it was sent',
        );
        this.deny(
          waiting,
          `cancelled by intent "${intent.id}" before it was sent (it was deferred)`,
        );
        return true;
      }
      this.deferred[at] = {
        ...waiting,
        ...(intent.quantity === undefined ? {} : { quantity: intent.quantity }),
        ...(intent.price === undefined ? {} : { price: intent.price }),
        ...(intent.triggerPrice === undefined ? {} : { triggerPrice: intent.triggerPrice }),
        ...(intent.orderType === undefined ? {} : { orderType: intent.orderType }),
      };
      this.emit({
        type: 'IntentDeferred',
        strategyId: intent.strategyId,
        intentId: intent.id,
        at: this.options.clock.now(),
        intent,
        reason: `applied to the deferred placement "${intent.target}", which goes out changed`,
      });
      return true;
    }
    if (!this.deferred.some(concerns)) return false;
    this.defer(intent, `waiting behind a deferred intent for "${intent.target}"`);
    return true;
  }

  /** Cancels every open order (shutdown, kill switch). */
  async cancelAll(strategyId?: string): Promise<void> {
    for (const o of this.tracker.active()) {
      if (strategyId !== undefined && o.strategyId !== strategyId) continue;
      await this.requestCancel(o);
    }
  }

  /**
   * Marks positions to the latest prices and trips the kill switch when the day's loss
   * (PnL now against PnL at the day's first check) reaches the limit.
   */
  markAndCheck(): void {
    if (this.closed) return;
    const quote = this.options.quote;
    if (quote !== undefined) {
      for (const p of this.positions.positions()) {
        const q = quote(p.token);
        if (q !== undefined) this.positions.mark(p.token, q.ltp);
      }
    }
    const { realised, unrealised } = this.positions.totals();
    const total = realised + unrealised;
    const day = istDay(this.options.clock.now());
    let baseline = this.kill.baselines[day];
    if (baseline === undefined) {
      // The day's first look: what came before today is not today's loss.
      baseline = total;
      this.kill = { day: this.kill.day, baselines: { [day]: baseline } };
      this.journal.setMeta(KILL_META, JSON.stringify(this.kill));
    }
    const loss = baseline - total;
    if (this.killed || loss < this.limits.dailyMaxLoss) return;
    this.kill = { ...this.kill, day };
    this.journal.setMeta(KILL_META, JSON.stringify(this.kill));
    this.options.logger.error(
      { loss, limit: this.limits.dailyMaxLoss, flatten: this.limits.flattenOnKill },
      'kill switch tripped: the daily loss limit is reached; no new entries today',
    );
    if (this.limits.flattenOnKill) void this.flattenAll();
  }

  private async flattenAll(): Promise<void> {
    try {
      await this.cancelAll();
    } catch (err) {
      if (err instanceof SessionError) this.pause(err);
      else this.options.logger.error({ err }, 'kill switch: cancelling open orders failed');
    }
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

  /** Writes an order's state. */
  private persist(order: TrackedOrder): void {
    if (this.closed) return;
    this.journal.commit({ orders: [order], at: this.options.clock.now() });
  }

  /** Journals an event (with its order and fill, in one transaction), then publishes it. */
  private emit(event: OrderEvent): void {
    // After close nothing is written or published; the next start reconciles by tag.
    if (this.closed) return;
    const order =
      'tag' in event && event.tag !== ''
        ? this.tracker.byIntent(event.strategyId, event.intentId)
        : undefined;
    if (
      (event.type === 'OrderFilled' || event.type === 'OrderPartiallyFilled') &&
      order !== undefined
    ) {
      const { instrument, side } = order.intent;
      // The order as it stands once this fill is booked, written with the fill itself.
      const booked = {
        ...order,
        fills: new Set([...order.fills, event.fillId]),
        filledQuantity: event.filledQuantity,
      };
      const fresh = this.journal.commit({
        orders: [booked],
        fill: {
          fillId: event.fillId,
          tag: event.tag,
          strategyId: event.strategyId,
          token: instrument.token,
          symbol: instrument.symbol,
          side,
          quantity: event.fillQuantity,
          price: event.fillPrice,
          at: event.at,
        },
        event,
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
      this.events.next(event);
      this.markAndCheck();
      return;
    }
    this.journal.commit({
      ...(order === undefined ? {} : { orders: [order] }),
      event,
      at: event.at,
    });
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
    if (!this.accepting) {
      // Stopping: nothing may wait for a later open or a new token.
      this.deny(intent, `${reason}; not kept: stopping`);
      return;
    }
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
    // While paused, resume() flushes, and the first read of the books after a restart
    // does while unreconciled; otherwise wake at the open, or look again soon.
    if (this.paused !== undefined || this.unreconciled || this.deferTimer !== undefined) return;
    const delay = until === undefined ? RECHECK_MS : until - this.options.clock.now();
    this.deferTimer = this.options.clock.scheduler.schedule(() => {
      this.deferTimer = undefined;
      this.flushDeferred();
    }, delay);
  }

  private flushDeferred(): void {
    const queued = this.deferred.splice(0);
    for (const intent of queued) void this.submit(intent);
  }

  private newTag(strategyId: string): string {
    this.seq += 1;
    return `${strategyId}-${this.options.clock.now().toString(36)}-${this.seq.toString(36)}`;
  }

  private sessions(): SessionGate | undefined {
    const { sessions } = this.options;
    return typeof sessions === 'function' ? sessions() : sessions;
  }

  /**
   * Net position of a strategy in an instrument, counting what its working orders
   * would still add (their unfilled remainder), so several pending exits cannot each
   * pass as "reducing".
   */
  private exposureOf(
    strategyId: string,
    token: string,
    except?: TrackedOrder,
  ): { position: number; pending: number } {
    const position =
      this.positions.positions(strategyId).find((p) => p.token === token)?.netQuantity ?? 0;
    let pending = 0;
    for (const o of this.tracker.active()) {
      if (o === except || o.strategyId !== strategyId || o.intent.instrument.token !== token)
        continue;
      const remaining = Math.max(0, o.quantity - o.filledQuantity);
      pending += o.intent.side === 'B' ? remaining : -remaining;
    }
    return { position, pending };
  }

  private async place(
    intent: PlaceIntent & { strategyId: string },
    reuse?: TrackedOrder,
    system = false,
  ): Promise<void> {
    const { clock } = this.options;
    let again = reuse;
    const existing = this.tracker.byIntent(intent.strategyId, intent.id);
    // An order the service refused for an expired session was never placed: after the
    // pause it goes out under the same intent and record.
    if (existing?.sessionRefused === true && again === undefined) {
      delete existing.sessionRefused;
      again = existing;
    }
    if (existing !== undefined && again === undefined && !system) {
      this.deny(intent, `intent id "${intent.id}" was already used`);
      return;
    }
    const sessions = this.sessions();
    if (sessions === undefined) {
      // Start-up goes on while the service is silent; the intent waits for a calendar
      // (the kernel retries deferred intents when one loads) rather than being lost.
      this.defer(intent, 'no trading calendar yet: waiting for the service');
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
    const exposure = this.exposureOf(intent.strategyId, intent.instrument.token, again);
    const verdict = checkPlace(
      intent,
      {
        openOrders: this.tracker.active().filter((o) => o !== again).length,
        position: exposure.position + exposure.pending,
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
    let order: TrackedOrder;
    if (again === undefined) {
      order = {
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
      // Its first row is written with the OrderSubmitted event below, before the send.
      this.tracker.track(order);
    } else {
      order = again;
      const oldTag = order.tag;
      // The earlier attempt's row is closed in the same transaction that opens this one,
      // so a restart never takes it for a live order; its tag is still watched for.
      const superseded: TrackedOrder = { ...order, status: 'replaced' };
      order.previousTags = [...(order.previousTags ?? []), oldTag];
      order.tag = tag;
      order.request = request;
      order.status = 'submitting';
      order.placedAt = now;
      delete order.unknownSince;
      this.tracker.rekey(oldTag, order);
      this.journal.commit({ orders: [superseded, order], at: now });
    }
    // The tag is in the journal before the request is sent: after a crash it is known.
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
      // A poll may have seen the order (and its final state) before this answer.
      order.orderId ??= result.orderNo;
      if (order.status === 'submitting' || order.status === 'unknown') order.status = 'pending';
      this.persist(order);
    } catch (err) {
      if (err instanceof OutcomeUnknownError) {
        if (order.status === 'submitting') {
          order.status = 'unknown';
          order.unknownSince = clock.now();
          this.persist(order);
        }
        this.options.logger.warn(
          { tag, strategyId: intent.strategyId },
          'placement outcome unknown; reconciling by tag, not resending',
        );
        return;
      }
      order.status = 'rejected';
      if (err instanceof SessionError) order.sessionRefused = true;
      this.persist(order);
      throw err;
    }
  }

  private async replaceAbsent(order: TrackedOrder): Promise<void> {
    const now = this.options.clock.now();
    const base = {
      strategyId: order.strategyId,
      intentId: order.intentId,
      tag: order.tag,
      at: now,
    };
    if (!this.accepting) {
      this.giveUpAtStop(order, now);
      return;
    }
    if (istDay(order.placedAt) !== istDay(now)) {
      // The day's book no longer lists an earlier day's orders: absence proves nothing,
      // even for an attempt a stop counted as not placed (checked first for that).
      order.status = 'unresolved';
      this.options.logger.error(
        { tag: order.tag, placedAt: new Date(order.placedAt).toISOString() },
        'an order from an earlier day never had its outcome confirmed; not placing it again: check it with the broker',
      );
      this.emit({
        type: 'OrderRejected',
        ...base,
        reason: 'unresolved: outcome never confirmed on its day; not re-placed',
      });
      return;
    }
    if (order.notPlacedAtStop !== undefined) {
      // Absent at the stop and again now, the same day: not placed. Never re-placed: the intent
      // belongs to a run that has ended.
      order.status = 'rejected';
      this.emit({
        type: 'OrderRejected',
        ...base,
        reason: 'not placed: absent from the book at the last stop and again at start',
      });
      return;
    }
    if (order.replacements >= 1) {
      order.status = 'rejected';
      this.emit({
        type: 'OrderRejected',
        ...base,
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

  /**
   * Stopping places nothing again, and an attempt the book shows absent past the grace
   * period must not hold the stop (a `flatten` would never square off its instrument):
   * it counts as not placed from here on. The journal keeps it `unknown`, marked, so
   * the next start still looks for it by tag (in case the book was late) and, if it is
   * absent then too, marks it not placed without placing it again.
   */
  private giveUpAtStop(order: TrackedOrder, now: number): void {
    order.notPlacedAtStop = now;
    this.persist(order);
    order.status = 'rejected';
    this.notPlacedAtStop.push(order);
    this.options.logger.warn(
      { tag: order.tag, strategyId: order.strategyId, intentId: order.intentId },
      'stopping: a placement whose outcome is unknown is absent from the book after the grace period; counted as not placed (the next start looks for it by tag)',
    );
  }

  /** An earlier attempt surfaced after its re-placement: follow it, and cancel it. */
  private async cancelDuplicate(order: TrackedOrder, record: OrderBookRecord): Promise<void> {
    const duplicate: TrackedOrder = {
      ...order,
      intentId: `${order.intentId}#duplicate`,
      intent: { ...order.intent, id: `${order.intentId}#duplicate` },
      tag: record.tags,
      orderId: record.id,
      status: 'pending',
      quantity: Number(record.quantity) || order.quantity,
      filledQuantity: 0,
      fills: new Set(),
      previousTags: [],
      acceptedSeen: false,
      openedSeen: false,
      system: true,
    };
    delete duplicate.cancelRequested;
    this.tracker.track(duplicate);
    this.persist(duplicate);
    this.options.logger.error(
      { tag: record.tags, orderId: record.id, replacement: order.tag },
      'an order thought absent turned up after it was placed again: cancelling the duplicate; its fills, if any, count',
    );
    try {
      await this.requestCancel(duplicate);
    } catch (err) {
      if (err instanceof SessionError) this.pause(err);
    }
  }

  private async modify(intent: ModifyIntent & { strategyId: string }): Promise<void> {
    const order = this.tracker.byIntent(intent.strategyId, intent.target);
    if (order === undefined || order.orderId === undefined || isFinal(order.status)) {
      this.deny(intent, `no open order for intent "${intent.target}"`);
      return;
    }
    const changed: PlaceIntent = {
      ...order.intent,
      quantity: intent.quantity ?? order.quantity,
      ...(intent.price === undefined ? {} : { price: intent.price }),
      ...(intent.triggerPrice === undefined ? {} : { triggerPrice: intent.triggerPrice }),
      ...(intent.orderType === undefined ? {} : { orderType: intent.orderType }),
    };
    // A modification is an order too: the same checks, with this order's own
    // remainder taken out of the exposure it adds to.
    const exposure = this.exposureOf(intent.strategyId, order.intent.instrument.token, order);
    const verdict = checkPlace(
      changed,
      {
        openOrders: this.tracker.active().length - 1,
        position:
          exposure.position +
          exposure.pending +
          (order.intent.side === 'B' ? order.filledQuantity : -order.filledQuantity),
        placementsToday: 0,
        killed: this.killed && changed.quantity > order.quantity,
        quote: this.options.quote?.(order.intent.instrument.token),
      },
      this.limits,
    );
    if (!verdict.ok) {
      this.deny(intent, verdict.reason);
      return;
    }
    const checked: ModifyIntent = {
      ...intent,
      quantity: verdict.intent.quantity,
      ...(verdict.intent.price === undefined ? {} : { price: verdict.intent.price }),
      ...(verdict.intent.triggerPrice === undefined
        ? {}
        : { triggerPrice: verdict.intent.triggerPrice }),
    };
    if (order.modifications >= this.maxModifications) {
      await this.cancelAndReplace(order, { ...verdict.intent, strategyId: intent.strategyId });
      return;
    }
    const request = toModifyRequest(order.request, checked);
    order.modifications += 1;
    this.persist(order);
    await this.options.broker.modifyOrder(order.variety, order.orderId, request);
    order.request = { ...order.request, ...request };
    this.persist(order);
  }

  /**
   * The service refuses a 26th modification: cancel, learn what filled meanwhile from
   * the order's own history, and place the changed remainder anew.
   */
  private async cancelAndReplace(
    order: TrackedOrder,
    changed: PlaceIntent & { strategyId: string },
  ): Promise<void> {
    const orderId = order.orderId ?? '';
    this.options.logger.info(
      { tag: order.tag, modifications: order.modifications },
      'modification limit reached: cancelling and placing anew',
    );
    await this.options.broker.cancelOrder(order.variety, orderId);
    order.cancelRequested = true;
    const [latest] = await this.options.broker.orderHistory(orderId);
    const filled = Math.max(order.filledQuantity, Number(latest?.fillShares || '0'));
    const remaining = changed.quantity - filled;
    if (remaining <= 0) return;
    await this.place({ ...changed, quantity: remaining }, undefined, true);
  }

  private async cancel(intent: CancelIntent & { strategyId: string }): Promise<void> {
    const order = this.tracker.byIntent(intent.strategyId, intent.target);
    if (order === undefined || order.orderId === undefined || isFinal(order.status)) {
      this.deny(intent, `no open order for intent "${intent.target}"`);
      return;
    }
    await this.options.broker.cancelOrder(order.variety, order.orderId);
  }

  /**
   * Asks to cancel an order, once at a time. A failure is logged, not thrown (but for
   * a refused session): the order may have filled or been cancelled meanwhile, and the
   * next poll tells which; a later request may try again.
   */
  private async requestCancel(order: TrackedOrder): Promise<void> {
    if (order.orderId === undefined || order.cancelRequested === true) return;
    order.cancelRequested = true;
    try {
      await this.options.broker.cancelOrder(order.variety, order.orderId);
    } catch (err) {
      order.cancelRequested = false;
      if (err instanceof SessionError) throw err;
      this.options.logger.warn(
        { err, tag: order.tag },
        'cancel failed; the next poll will tell where the order stands',
      );
    }
  }

  private async squareOff(intent: SquareOffIntent & { strategyId: string }): Promise<void> {
    const inScope = (o: TrackedOrder) =>
      o.strategyId === intent.strategyId &&
      (intent.token === undefined || o.intent.instrument.token === intent.token);
    for (const o of this.tracker.active().filter(inScope)) await this.requestCancel(o);
    const tokens = new Set(
      [
        ...this.positions.positions(intent.strategyId).map((p) => p.token),
        ...this.tracker
          .active()
          .filter(inScope)
          .map((o) => o.intent.instrument.token),
      ].filter((t) => intent.token === undefined || t === intent.token),
    );
    for (const token of tokens) {
      const position =
        this.positions.positions(intent.strategyId).find((p) => p.token === token)?.netQuantity ??
        0;
      // Placements not yet answered cannot be cancelled; what they may still add counts.
      const unanswered = this.tracker
        .active()
        .filter((o) => inScope(o) && o.intent.instrument.token === token && o.orderId === undefined)
        .reduce(
          (sum, o) => sum + (o.intent.side === 'B' ? 1 : -1) * (o.quantity - o.filledQuantity),
          0,
        );
      const net = position + unanswered;
      if (net === 0) continue;
      const source = this.tracker
        .all()
        .find((o) => o.strategyId === intent.strategyId && o.intent.instrument.token === token);
      if (source === undefined) continue;
      const exit: PlaceIntent & { strategyId: string } = {
        kind: 'place',
        strategyId: intent.strategyId,
        id: `${intent.id}:${token}`,
        instrument: source.intent.instrument,
        side: net > 0 ? 'S' : 'B',
        quantity: Math.abs(net),
        orderType: 'MKT',
        product: source.intent.product,
        reason: intent.reason ?? 'square off',
      };
      // One instrument's failure must not leave the others open.
      try {
        await this.place(exit, undefined, true);
      } catch (err) {
        this.onBrokerError(exit, err);
      }
    }
  }

  /**
   * Pauses trading on a refused session; public so that a refusal met elsewhere (the
   * market-data bus) pauses execution too, since both use the same token.
   */
  pause(err: SessionError): void {
    if (this.paused !== undefined) return;
    this.paused = 'session expired or invalid (HTTP 401/403)';
    if (this.options.onSessionRefused !== undefined) {
      this.options.onSessionRefused(err);
      return;
    }
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
