import type { Logger } from 'pino';
import { map, merge, type Observable, Subject, type Subscription } from 'rxjs';
import type { Product } from '../domain/order-params.ts';
import { isFinal, type TrackedOrder } from '../execution/tracked-order.ts';
import { type BrokerNet, brokerNetPositions } from './bot-controls-broker.ts';
import { OrderLifecycles, shownOrders } from './bot-controls-lifecycles.ts';
import type { ControlAction, ControlRecord } from './bot-controls-state.ts';
import { type BotStatus, orderView, type StrategyView } from './bot-controls-status.ts';
import { controlIntentId, type SubmitOutcome, submitWatched } from './bot-controls-submit.ts';
import type { Kernel } from './kernel.ts';

export type { BrokerNet } from './bot-controls-broker.ts';
export type { ControlAction, ControlRecord } from './bot-controls-state.ts';
export type { BotStatus } from './bot-controls-status.ts';

/** Recent (finished) orders the status lists. */
const RECENT_ORDERS = 50;

/** What a control asked: strategy, token and product where they apply. */
interface ControlTarget {
  strategy?: string;
  token?: number;
  product?: Product;
}

/**
 * The operators' controls and read side over a running {@link Kernel}: what the
 * dashboard, Telegram and metrics call. Every control is journalled (`ControlState`) and
 * logged with who asked; an expected refusal (an unknown strategy, nothing to close) is a
 * record with outcome `refused` or `unchanged`, never an exception.
 *
 * @example
 * ```ts
 * const controls = BotControls.of(kernel, logger);
 * await controls.squareOffAll('dashboard');
 * controls.changes$.subscribe(() => push(controls.status()));
 * ```
 */
export class BotControls {
  /** The steps of the orders a status shows (pruned: see {@link OrderLifecycles}). */
  private readonly lifecycles: OrderLifecycles;
  private readonly stale = new Set<number>();
  private readonly controlled = new Subject<ControlRecord>();
  private readonly subscriptions: Subscription[] = [];
  private readonly log: Logger;
  /** Set by {@link beginStop}: every control is refused from then on. */
  private stoppingNow = false;
  /** Something the status shows changed: an order event, positions, data health, a control. */
  readonly changes$: Observable<void>;

  private constructor(
    private readonly kernel: Kernel,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'controls' });
    const { engine, bus } = kernel;
    this.lifecycles = new OrderLifecycles(() => {
      const { working, finished } = shownOrders(engine.orders(), RECENT_ORDERS);
      return [...working, ...finished];
    }, RECENT_ORDERS);
    this.subscriptions.push(
      engine.events$.subscribe((e) => {
        if ('tag' in e) this.lifecycles.add(e);
      }),
      bus.stale$.subscribe((s) => {
        if (s.stale) this.stale.add(s.token);
        else this.stale.delete(s.token);
      }),
    );
    this.changes$ = merge(
      engine.events$,
      kernel.positionUpdates$,
      bus.health$,
      bus.stale$,
      this.controlled,
    ).pipe(map(() => undefined));
  }

  /** The controls of `kernel`; make them before `kernel.start()` to see every order's life. */
  static of(kernel: Kernel, logger: Logger): BotControls {
    return new BotControls(kernel, logger);
  }

  /**
   * Marks the bot as stopping (the run command calls it as the stop begins): every
   * control is refused from then on, since the engine no longer sends what it would ask.
   */
  beginStop(): void {
    this.stoppingNow = true;
  }

  /** How many orders' lifecycles are kept: about as many as the status shows. */
  get lifecycleCount(): number {
    return this.lifecycles.size;
  }

  /** Strategy ids of the bot. */
  strategyIds(): string[] {
    return Object.keys(this.kernel.strategyStatus());
  }

  /** Pauses a strategy: its new entries are dropped until {@link resumeStrategy}. */
  pauseStrategy(id: string, who: string): ControlRecord {
    if (this.stoppingNow) return this.refuseStopping(who, 'pause', { strategy: id });
    if (!this.strategyIds().includes(id))
      return this.record(who, 'pause', { strategy: id }, 'refused', 'no such strategy');
    const changed = this.kernel.controlState.setPaused(id, true);
    const withdrawn = this.withdrawDeferredEntries([id], who);
    const detail = withdrawn === 0 ? 'paused' : `paused; ${withdrawn} deferred entries withdrawn`;
    return this.record(who, 'pause', { strategy: id }, changed ? 'done' : 'unchanged', detail);
  }

  /** Resumes a strategy paused by hand. */
  resumeStrategy(id: string, who: string): ControlRecord {
    if (this.stoppingNow) return this.refuseStopping(who, 'resume', { strategy: id });
    if (!this.strategyIds().includes(id))
      return this.record(who, 'resume', { strategy: id }, 'refused', 'no such strategy');
    const changed = this.kernel.controlState.setPaused(id, false);
    return this.record(who, 'resume', { strategy: id }, changed ? 'done' : 'unchanged', 'running');
  }

  /**
   * Squares off one instrument for every strategy holding it (only strategies whose
   * orders in it used `product`, when given): cancels their working orders in it and
   * closes the net quantity at market. Resolves once the exits are sent.
   */
  async squareOff(token: number, who: string, product?: Product): Promise<ControlRecord> {
    const { engine } = this.kernel;
    const target: ControlTarget = product === undefined ? { token } : { token, product };
    if (this.stoppingNow) return this.refuseStopping(who, 'squareOff', target);
    const holders = new Set(
      [
        ...engine.positions.positions().filter((p) => p.token === token && p.netQuantity !== 0),
        ...engine.orders().filter((o) => !isFinal(o.status) && o.intent.instrument.token === token),
      ].map((x) => x.strategyId),
    );
    const ids = [...holders].filter(
      (id) =>
        product === undefined ||
        engine
          .orders(id)
          .some((o) => o.intent.instrument.token === token && o.intent.product === product),
    );
    if (ids.length === 0) return this.record(who, 'squareOff', target, 'unchanged', 'nothing open');
    const id = controlIntentId('ops', this.kernel.clock.now());
    const result = await submitWatched(
      engine,
      ids.map((strategyId) => ({
        kind: 'squareOff',
        id,
        strategyId,
        token,
        reason: `square-off by ${who}`,
      })),
    );
    return this.reportSubmit(who, 'squareOff', target, result, `squared off for ${ids.join(', ')}`);
  }

  /**
   * Pauses every strategy (nothing re-enters until each is resumed), cancels every
   * working order and closes every position at market. Resolves once the exits are sent.
   */
  async squareOffAll(who: string): Promise<ControlRecord> {
    if (this.stoppingNow) return this.refuseStopping(who, 'squareOffAll', {});
    const { engine, controlState } = this.kernel;
    for (const id of this.strategyIds()) controlState.setPaused(id, true);
    // Entries deferred (trading paused, reconciling) would go out on resume: withdraw them.
    this.withdrawDeferredEntries(this.strategyIds(), who);
    const ids = new Set([
      ...engine.positions
        .positions()
        .filter((p) => p.netQuantity !== 0)
        .map((p) => p.strategyId),
      ...engine
        .orders()
        .filter((o) => !isFinal(o.status))
        .map((o) => o.strategyId),
    ]);
    const id = controlIntentId('ops-all', this.kernel.clock.now());
    await engine.cancelAll();
    const result = await submitWatched(
      engine,
      [...ids].map((strategyId) => ({
        kind: 'squareOff',
        id,
        strategyId,
        reason: `square-off all by ${who}`,
      })),
    );
    if (ids.size === 0)
      return this.record(who, 'squareOffAll', {}, 'done', 'every strategy paused; nothing open');
    const detail = `every strategy paused; closed ${[...ids].join(', ')}`;
    return this.reportSubmit(who, 'squareOffAll', {}, result, detail);
  }

  /** Trips the kill switch for the rest of the IST day (with `risk.flattenOnKill`, closes all). */
  tripKillSwitch(who: string): ControlRecord {
    if (this.stoppingNow) return this.refuseStopping(who, 'killSwitch', {});
    const { engine } = this.kernel;
    if (engine.killed) return this.record(who, 'killSwitch', {}, 'unchanged', 'already tripped');
    const tripped = engine.tripKillSwitch(who);
    // False while not tripped: the engine has stopped (its journal is closed).
    if (!tripped) return this.record(who, 'killSwitch', {}, 'refused', 'the engine has stopped');
    return this.record(who, 'killSwitch', {}, 'done', 'tripped');
  }

  /** Everything the bot shows now. */
  status(): BotStatus {
    const { engine, bus, config, controlState } = this.kernel;
    const book = engine.positions;
    const runs = this.kernel.strategyStatus();
    const strategies: StrategyView[] = Object.entries(runs).map(([id, status]) => ({
      id,
      status,
      paused: controlState.isPaused(id),
      ...book.totals(id),
      openPositions: book.positions(id).filter((p) => p.netQuantity !== 0).length,
    }));
    const { working, finished } = shownOrders(engine.orders(), RECENT_ORDERS);
    // Only what is shown keeps its steps: a long-lived bot's memory follows the view.
    this.lifecycles.keepOnly([...working, ...finished]);
    const view = (o: TrackedOrder) => orderView(o, this.lifecycles.of(o.tag));
    const paused = engine.pausedReason;
    return {
      at: this.kernel.clock.now(),
      mode: config.mode,
      strategies,
      positions: book.positions(),
      totals: book.totals(),
      orders: {
        working: working.map(view),
        recent: finished.map(view),
      },
      marketData: {
        status: bus.status,
        staleTokens: [...this.stale].sort((a, b) => a - b),
        rejectedTokens: bus.rejectedTokenList?.() ?? [],
        quoteTokens: bus.stats.quoteTokens,
      },
      killSwitch: { tripped: engine.killed, flattenOnKill: config.risk.flattenOnKill },
      ...(paused === undefined ? {} : { tradingPaused: paused }),
      controls: controlState.recent(),
    };
  }

  /** Net quantity by token from the broker's own trade book (the paper venue's in paper). */
  brokerPositions(signal?: AbortSignal): Promise<BrokerNet[]> {
    return brokerNetPositions(this.kernel.broker, signal);
  }

  /** Stops following the kernel's streams. */
  close(): void {
    for (const s of this.subscriptions) s.unsubscribe();
    this.controlled.complete();
  }

  /**
   * Withdraws the deferred placements of `strategyIds` (a cancel of a deferred placement
   * takes it out of the queue at once, with an `OrderDenied`), so a paused strategy does
   * not enter when trading resumes. The framework's own (exits) stay. Returns how many.
   */
  private withdrawDeferredEntries(strategyIds: string[], who: string): number {
    const { engine, clock } = this.kernel;
    let withdrawn = 0;
    for (const strategyId of strategyIds) {
      for (const o of engine.openOrders(strategyId)) {
        if (o.status !== 'deferred' || o.system) continue;
        const id = controlIntentId('ops-withdraw', clock.now());
        const reason = `strategy paused by an operator (${who})`;
        void engine.submit({ kind: 'cancel', id, strategyId, target: o.intentId, reason });
        withdrawn++;
      }
    }
    return withdrawn;
  }

  /** `done` only when the engine neither denied nor deferred what the control sent. */
  private reportSubmit(
    who: string,
    action: ControlAction,
    target: ControlTarget,
    result: SubmitOutcome,
    doneDetail: string,
  ): ControlRecord {
    if (result.denied.length > 0)
      return this.record(who, action, target, 'refused', `denied for ${result.denied.join(', ')}`);
    if (result.deferred.length > 0) {
      const why = this.kernel.engine.pausedReason ?? 'reconciling with the broker';
      const detail = `waiting (${why}) for ${result.deferred.join(', ')}: sent when trading resumes`;
      return this.record(who, action, target, 'deferred', detail);
    }
    return this.record(who, action, target, 'done', `${doneDetail} (${result.sent} exit orders)`);
  }

  private refuseStopping(who: string, action: ControlAction, target: ControlTarget): ControlRecord {
    return this.record(who, action, target, 'refused', 'the bot is stopping');
  }

  private record(
    who: string,
    action: ControlAction,
    target: ControlTarget,
    outcome: ControlRecord['outcome'],
    detail: string,
  ): ControlRecord {
    const entry: ControlRecord = {
      at: this.kernel.clock.now(),
      who,
      action,
      ...target,
      outcome,
      detail,
    };
    this.kernel.controlState.record(entry);
    const level = outcome === 'refused' ? 'warn' : 'info';
    this.log[level]({ who, action, ...target, outcome, detail }, `control: ${action} (${outcome})`);
    this.controlled.next(entry);
    return entry;
  }
}
