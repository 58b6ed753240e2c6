import { type Observable, Subject } from 'rxjs';
import { SessionError } from '../api/errors/session-error.ts';
import { DEFAULT_RATE_LIMITS } from '../api/pacing/rate-limits.ts';
import type { RoutedIntent } from '../domain/intents.ts';
import type { MarketSessions } from '../domain/market-sessions.ts';
import type { OpenOrder, OrderEvent } from '../domain/order-events.ts';
import { Amendments } from './amendment.ts';
import { BracketManager } from './brackets/bracket-manager.ts';
import { BracketStore } from './brackets/bracket-store.ts';
import { DeferredIntents } from './deferred-intents.ts';
import { engineBook } from './engine-book.ts';
import type { EngineCore } from './engine-core.ts';
import type { ExecutionEngineOptions, ShutdownOptions } from './engine-options.ts';
import { stopEngine } from './engine-stop.ts';
import { EventRecorder } from './event-recorder.ts';
import { type ExitGivenUp, ExitRetries } from './exit-retries.ts';
import { DEFAULT_EXIT_RETRIES } from './exit-retry-options.ts';
import { cancelAll, flattenAll } from './flatten.ts';
import { IntentOutcomes } from './intent-outcomes.ts';
import { type Journal, MemoryJournal } from './journal.ts';
import { KillSwitch } from './kill-switch.ts';
import { openOrdersOf } from './open-orders.ts';
import { OrderTracker } from './order-tracker.ts';
import { Placements } from './placement.ts';
import type { PositionBook } from './position-book.ts';
import { recoverFromJournal } from './recover.ts';
import { DEFAULT_RISK_LIMITS, type RiskLimits } from './risk/risk-limits.ts';
import { type IntentRoutes, routeIntent } from './route-intent.ts';
import type { ShutdownReport } from './run-shutdown.ts';
import type { ShutdownPolicy } from './shutdown-policy.ts';
import type { TrackedOrder } from './tracked-order.ts';
import { TradingPause } from './trading-pause.ts';

export type { ExecutionEngineOptions, ShutdownOptions } from './engine-options.ts';

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
  /** Every order event, in order. */
  readonly events$: Observable<OrderEvent>;
  /** Square-off exits refused on every try: the position may still be open. */
  readonly exitsGivenUp$: Observable<ExitGivenUp>;
  private readonly givenUp = new Subject<ExitGivenUp>();
  private readonly exitRetries: ExitRetries;
  private readonly tracker: OrderTracker;
  private readonly journal: Journal;
  private readonly limits: RiskLimits;
  private readonly recorder: EventRecorder;
  private readonly killSwitch: KillSwitch;
  private readonly deferred: DeferredIntents;
  private readonly placements: Placements;
  private readonly amendments: Amendments;
  /** Brackets: entries whose stop and target the engine manages. */
  readonly brackets: BracketManager;
  /** The parts intents are routed to (see {@link routeIntent}). */
  private readonly routes: IntentRoutes;
  /** What the parts share; built once, reading this engine's state live. */
  private readonly core: EngineCore;
  private readonly pauses: TradingPause;
  private readonly outcomes: IntentOutcomes;
  private accepting = true;
  private readonly submitting = new Set<Promise<void>>();
  /**
   * The journal's orders are not yet reconciled with the broker's books (start-up with
   * a silent or failing service): only cancels go out, other intents wait.
   */
  private unreconciled = false;

  constructor(private readonly options: ExecutionEngineOptions) {
    const { clock, logger } = options;
    this.pauses = new TradingPause(logger, options.onSessionRefused);
    this.journal = options.journal ?? new MemoryJournal();
    this.positions = options.positions ?? engineBook(options, this.journal);
    this.limits = { ...DEFAULT_RISK_LIMITS, ...options.risk };
    this.recorder = new EventRecorder({
      clock,
      journal: this.journal,
      orders: {
        byTag: (tag) => this.tracker.byTag(tag),
        byIntent: (strategyId, intentId) => this.tracker.byIntent(strategyId, intentId),
      },
      positions: this.positions,
      afterFill: () => this.markAndCheck(),
    });
    this.tracker = new OrderTracker({
      broker: options.broker,
      clock,
      logger,
      intervalMs: options.trackIntervalMs ?? 1_000,
      unknownGraceMs: options.unknownGraceMs ?? 10_000,
      sink: this.recorder,
      onFollowUp: (step) => this.placements.followUp(step),
      afterPoll: (error) => {
        if (error instanceof SessionError) this.pause(error);
        // A poll the stop's budget gave up on may end after the journal is closed.
        if (!this.recorder.isClosed) {
          // Bookkeeping between orders: event rows a placement left, then the checkpoint.
          this.recorder.flush();
          this.journal.checkpoint?.();
        }
        if (this.unreconciled && this.tracker.lastReadOk) this.reconciled();
      },
      isPaused: () => this.pauses.reason !== undefined,
    });
    this.events$ = this.recorder.events$;
    this.outcomes = new IntentOutcomes({
      clock,
      logger,
      emit: (e) => this.recorder.emit(e),
      pause: (err) => this.pause(err),
      pausedReason: () => this.pauses.reason,
      defer: (i, reason) => this.deferred.defer(i, reason),
      byIntent: (strategyId, intentId) => this.tracker.byIntent(strategyId, intentId),
    });
    this.killSwitch = new KillSwitch({ journal: this.journal, clock, logger, limits: this.limits });
    this.deferred = new DeferredIntents({
      clock,
      logger,
      accepting: () => this.accepting,
      held: () => this.pauses.reason !== undefined || this.unreconciled,
      submit: (i) => this.submit(i),
      emit: (e) => this.recorder.emit(e),
      deny: (i, reason) => this.outcomes.deny(i, reason),
    });
    const engine = this;
    this.core = {
      options,
      tracker: this.tracker,
      journal: this.journal,
      positions: this.positions,
      limits: this.limits,
      get killed() {
        return engine.killed;
      },
      get accepting() {
        return engine.accepting;
      },
      emit: (e) => this.recorder.emit(e),
      persist: (o) => this.recorder.persist(o),
      submitted: (orders, e) => this.recorder.submitted(orders, e),
      deny: (i, reason) => this.outcomes.deny(i, reason),
      defer: (i, reason, until) => this.deferred.defer(i, reason, until),
      sessions: () => this.sessions(),
      pause: (err) => this.pause(err),
      paused: () => this.pauses.reason !== undefined,
      onBrokerError: (i, err) => this.outcomes.brokerError(i, err),
      place: (i, reuse, system) => this.placements.place(i, reuse, system),
      requestCancel: (o) => this.amendments.requestCancel(o),
      watchExit: (squareOff, exitId, token) => this.exitRetries.watch(squareOff, exitId, token),
    };
    this.exitsGivenUp$ = this.givenUp.asObservable();
    this.exitRetries = new ExitRetries(
      this.core,
      (i) => this.submit(i),
      { ...DEFAULT_EXIT_RETRIES, ...options.exitRetries },
      (given) => this.givenUp.next(given),
    );
    this.placements = new Placements(this.core);
    this.amendments = new Amendments(
      this.core,
      options.maxModifications ?? DEFAULT_RATE_LIMITS.modificationsPerOrder,
    );
    this.brackets = new BracketManager({
      core: this.core,
      store: new BracketStore(this.journal),
      submit: (i) => this.submit(i),
      ready: () => !this.unreconciled,
      maxModifications: options.maxModifications ?? DEFAULT_RATE_LIMITS.modificationsPerOrder,
      ...(options.marks === undefined ? {} : { marks: options.marks }),
    });
    // Before any other subscriber: the manager only queues its steps, never acts inside.
    this.recorder.events$.subscribe((e) => this.brackets.onEvent(e));
    // Only schedules a later try on the clock: acts on nothing inside the event.
    this.recorder.events$.subscribe((e) => this.exitRetries.onEvent(e));
    this.routes = {
      core: this.core,
      placements: this.placements,
      amendments: this.amendments,
      brackets: this.brackets,
    };
  }

  /**
   * Crash-only start: reloads the journal, rebuilds orders and positions from it,
   * reconciles with the broker's order and trade books (emitting whatever happened
   * while down) and goes on. Placements whose outcome was never learned are found by
   * tag, or re-placed once (the same day only) after the grace period.
   */
  async recover(): Promise<{ orders: number; fills: number }> {
    // Before the first read of the books, so the fills it finds reach live brackets.
    this.brackets.restore();
    const recovered = await recoverFromJournal({
      clock: this.options.clock,
      logger: this.options.logger,
      journal: this.journal,
      tracker: this.tracker,
      positions: this.positions,
      placements: this.placements,
      killSwitch: this.killSwitch,
      waitMs: this.options.recoverWaitMs ?? 5_000,
      hold: () => {
        this.unreconciled = true;
      },
      unreconciled: () => this.unreconciled,
    });
    if (!this.unreconciled) this.brackets.resume();
    return recovered;
  }

  /** The first complete read of the books after a restart: intents held for it go out. */
  private reconciled(): void {
    this.unreconciled = false;
    this.brackets.resume();
    if (this.deferred.size === 0) return;
    this.options.logger.info(
      { deferred: this.deferred.size },
      'reconciled with the broker: intents held for it go out now',
    );
    if (this.pauses.reason === undefined) this.deferred.flush();
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
    this.brackets.stop();
    this.exitRetries.stop();
    return this.deferred.dropAll();
  }

  /**
   * Stops for good under a shutdown policy, within the budget of `options.signal`, and
   * reports what is still open at the broker and what was left undone. See {@link stopEngine}.
   */
  shutdown(policy: ShutdownPolicy, options: ShutdownOptions = {}): Promise<ShutdownReport> {
    return stopEngine(
      {
        core: this.core,
        submitting: this.submitting,
        stopAccepting: () => this.stopAccepting(),
        notPlaced: () => this.placements.notPlacedAtStop,
      },
      policy,
      options,
    );
  }

  /** Closes the journal; answers arriving later are not written. */
  close(): void {
    this.recorder.close();
  }

  /** Orders of one strategy, or all. */
  orders(strategyId?: string): TrackedOrder[] {
    return this.tracker
      .all()
      .filter((o) => strategyId === undefined || o.strategyId === strategyId);
  }

  /** Working orders of a strategy, deferred placements included (`ctx.openOrders`). */
  openOrders(strategyId: string, token?: number): OpenOrder[] {
    return openOrdersOf(this.tracker.active(), this.deferred.waiting(), strategyId, token);
  }

  /** Runs one tracking poll now (or waits for the one under way). */
  poll(): Promise<void> {
    return this.tracker.poll();
  }

  /** Why trading is paused (e.g. an expired session), or undefined. */
  get pausedReason(): string | undefined {
    return this.pauses.reason;
  }

  /** Whether the kill switch has tripped today. */
  get killed(): boolean {
    return this.killSwitch.killed;
  }

  /** Resumes after a pause, e.g. once a fresh token is in place. */
  resume(): void {
    if (this.pauses.resume()) this.deferred.flush();
  }

  /** Sends deferred intents again, e.g. once a calendar has loaded. */
  retryDeferred(): void {
    if (this.pauses.reason === undefined) this.deferred.flush();
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
    if ((intent.kind === 'cancel' || intent.kind === 'modify') && this.deferred.actOn(intent))
      return;
    if (this.pauses.reason !== undefined) {
      this.deferred.defer(intent, `trading paused: ${this.pauses.reason}`);
      return;
    }
    if (this.unreconciled && intent.kind !== 'cancel') {
      // An order on unreconciled state could double a position that filled while down,
      // or "close" one the broker already closed; a cancel is safe either way.
      this.deferred.defer(intent, 'reconciling with the broker after a restart');
      return;
    }
    await routeIntent(this.routes, intent);
  }

  /** Cancels every open order (shutdown, kill switch). */
  cancelAll(strategyId?: string): Promise<void> {
    return cancelAll(this.core, strategyId);
  }

  /**
   * Marks positions to the latest prices and trips the kill switch when the day's loss
   * (PnL now against PnL at the day's first check) reaches the limit.
   */
  markAndCheck(): void {
    if (this.recorder.isClosed) return;
    const quote = this.options.quote;
    if (quote !== undefined) {
      this.positions.forEachToken((token) => {
        const q = quote(token);
        if (q === undefined) return;
        this.positions.mark(token, q.ltp);
        this.brackets.onPrice(token, q.ltp);
      });
    }
    const { realised, unrealised } = this.positions.totals();
    if (this.killSwitch.check(realised + unrealised)) this.afterKill();
  }

  /**
   * Trips the kill switch by hand (`who` asked: an operator's control): entries stop for
   * the IST day and, with `flattenOnKill`, everything is closed. False when already tripped.
   */
  tripKillSwitch(who: string): boolean {
    if (this.recorder.isClosed || !this.killSwitch.trip(who)) return false;
    this.afterKill();
    return true;
  }

  private afterKill(): void {
    if (!this.limits.flattenOnKill) return;
    // Before the cancels: a leg cancelled by the flatten must not be placed again.
    this.brackets.endAll('kill switch');
    void flattenAll(this.core, (i) => this.submit(i));
  }

  private sessions(): MarketSessions | undefined {
    const { sessions } = this.options;
    return typeof sessions === 'function' ? sessions() : sessions;
  }

  /**
   * Pauses trading on a refused session; public so that a refusal met elsewhere (the
   * market-data bus) pauses execution too, since both use the same token.
   */
  pause(err: SessionError): void {
    this.pauses.pause(err);
  }
}
