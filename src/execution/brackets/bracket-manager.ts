import type { Observable, Subscription } from 'rxjs';
import { SessionError } from '../../api/errors/session-error.ts';
import type { BracketIntent, RoutedIntent } from '../../domain/intents.ts';
import type { Paise } from '../../domain/money.ts';
import type { OrderEvent } from '../../domain/order-events.ts';
import type { Product } from '../../domain/order-params.ts';
import type { EngineCore } from '../engine-core.ts';
import { isFinal } from '../tracked-order.ts';
import { bracketProblem, entryIntent } from './bracket-entry.ts';
import { type BracketEventHooks, followEvent } from './bracket-events.ts';
import type { BracketRecord } from './bracket-record.ts';
import { type BracketStore, bracketKey, noFills } from './bracket-store.ts';
import { syncBracket, wantsStep } from './bracket-sync.ts';
import { type LiveBracket, newLive } from './live-bracket.ts';

/** What {@link BracketManager} needs from the engine. */
export interface BracketManagerDeps {
  core: EngineCore;
  store: BracketStore;
  /** The engine's own entry point for intents: guards, risk, journal, tracking. */
  submit(intent: RoutedIntent): Promise<void>;
  /** False while the journal's orders are not yet reconciled with the broker's books. */
  ready(): boolean;
  /** Last prices of an instrument as they come, for trailing and the stop's check; optional. */
  marks?: (token: number) => Observable<Paise>;
  /** Modifications the service allows per order: past them a leg is cancelled and placed anew. */
  maxModifications?: number;
}

/**
 * Manages brackets (entry, then a one-cancels-other stop and target) for every
 * strategy: reacts to the engine's order events (fills of the entry grow the legs, a
 * leg's fill shrinks or cancels the other) and to prices (the trailing stop), and acts
 * through the engine's own paths, one step at a time per bracket (see
 * {@link syncBracket}). Live brackets are kept in the journal and resumed after a
 * restart; a square-off, the kill switch's flatten or a cancel of a leg ends one.
 */
export class BracketManager {
  private readonly live = new Map<string, LiveBracket>();
  private readonly feeds = new Map<number, Subscription>();
  private readonly lastPrice = new Map<number, Paise>();
  /** False between a restart's restore and the first read of the books. */
  private settled = true;
  private stopped = false;

  constructor(private readonly deps: BracketManagerDeps) {
    this.hooks = this.makeHooks();
  }

  /** Live brackets. */
  get size(): number {
    return this.live.size;
  }

  /** The live brackets' records (for tests and the journal). */
  records(): BracketRecord[] {
    return [...this.live.values()].map((b) => b.record);
  }

  /** Takes a bracket intent: checks it, keeps it, and places its entry. */
  async open(intent: BracketIntent & { strategyId: string }): Promise<void> {
    const { core } = this.deps;
    const { strategyId, ...bracket } = intent;
    const used =
      this.live.has(bracketKey(strategyId, intent.id)) ||
      core.tracker.byIntent(strategyId, intent.id) !== undefined;
    const problem = bracketProblem(intent, used);
    if (problem !== undefined) {
      core.deny(intent, problem);
      return;
    }
    this.live.set(
      bracketKey(strategyId, intent.id),
      newLive({ strategyId, intent: bracket, legs: {} }, noFills()),
    );
    this.save();
    this.follow(bracket);
    const entry = entryIntent(intent);
    try {
      await core.place(entry);
    } catch (err) {
      core.onBrokerError(entry, err);
    }
  }

  /**
   * Follows the engine's order events (see {@link followEvent}). Never throws: it runs
   * inside the publication of every event (a journal write failing here is logged, and
   * the next change writes the brackets again).
   */
  onEvent(e: OrderEvent): void {
    try {
      followEvent(e, this.hooks);
    } catch (err) {
      this.deps.core.options.logger.error(
        { err, strategyId: e.strategyId, intentId: e.intentId },
        'bracket bookkeeping failed for an order event',
      );
    }
  }

  private readonly hooks: BracketEventHooks;

  private makeHooks(): BracketEventHooks {
    return {
      tracker: this.deps.core.tracker,
      find: (strategyId, id) => this.live.get(bracketKey(strategyId, id)),
      schedule: (live) => this.schedule(live),
      fail: (live, reason) => this.fail(live, reason),
      end: (live, reason) => this.abandon(live, reason),
      quiet: () => this.stopped || !this.settled,
    };
  }

  /**
   * The bracket's protection failed (a leg denied or rejected, the stop already passed,
   * a leg that cannot be modified): its next steps cancel its orders and exit what it
   * holds at market, never leaving the position without a stop.
   */
  private fail(live: LiveBracket, reason: string): void {
    if (live.failure !== undefined) return;
    live.failure = reason;
    const { strategyId, intent } = live.record;
    this.deps.core.options.logger.error(
      { strategyId, bracket: intent.id, token: intent.instrument.token },
      `bracket failed, flattening it: ${reason}`,
    );
    this.schedule(live);
  }

  /** A last price: the trailing stop follows it, in favour only. */
  onPrice(token: number, ltp: Paise): void {
    this.lastPrice.set(token, ltp);
    for (const live of this.live.values()) {
      const { intent } = live.record;
      if (intent.instrument.token !== token) continue;
      if (wantsStep(live, ltp)) this.schedule(live);
    }
  }

  /** A square-off of a strategy (one instrument or all): its brackets there end. */
  endFor(strategyId: string, token: number | undefined, reason: string, product?: Product): void {
    for (const live of [...this.live.values()]) {
      const { record } = live;
      if (record.strategyId !== strategyId) continue;
      if (token !== undefined && record.intent.instrument.token !== token) continue;
      // A square-off of one product (the intraday one before the close) leaves the others'.
      if (product !== undefined && record.intent.product !== product) continue;
      this.end(live, reason);
    }
  }

  /** Every bracket ends (the kill switch's flatten). */
  endAll(reason: string): void {
    for (const live of [...this.live.values()]) this.end(live, reason);
  }

  /**
   * The engine stops: nothing more is placed or changed, and the brackets stay live in
   * the journal, so the next start resumes them (legs the stop cancelled are placed again).
   */
  stop(): void {
    this.stopped = true;
    for (const s of this.feeds.values()) s.unsubscribe();
    this.feeds.clear();
  }

  /** After a restart, before the journal's orders are reconciled: the brackets a previous run left live. */
  restore(): void {
    let records: BracketRecord[];
    try {
      records = this.deps.store.load();
    } catch (err) {
      // A corrupt value must not stop the start: the positions stay, their legs unmanaged.
      this.deps.core.options.logger.error(
        { err },
        "the journal's live brackets could not be read; their legs are no longer managed",
      );
      return;
    }
    if (records.length === 0) return;
    const fills = this.deps.store.fillsOf(records);
    for (const record of records) {
      const key = bracketKey(record.strategyId, record.intent.id);
      this.live.set(key, { ...newLive(record, fills.get(key) ?? noFills()), restored: true });
    }
    this.settled = false;
    this.deps.core.options.logger.info(
      { brackets: records.length },
      'brackets reloaded from the journal; managed again once reconciled with the broker',
    );
  }

  /** Reconciled with the broker (or nothing to reconcile): every bracket takes its next step. */
  resume(): void {
    this.settled = true;
    for (const live of this.live.values()) {
      this.follow(live.record.intent);
      this.schedule(live);
    }
  }

  /** Runs the bracket's next step after the steps already queued for it. */
  private schedule(live: LiveBracket): void {
    if (live.queued || this.stopped) return;
    live.queued = true;
    live.chain = live.chain
      .then(() => {
        live.queued = false;
        if (this.stopped || !this.settled || !this.deps.ready()) return;
        if (this.live.get(bracketKey(live.record.strategyId, live.record.intent.id)) !== live)
          return;
        return syncBracket(live, {
          core: this.deps.core,
          submit: (i) => this.deps.submit(i),
          lastPrice: this.lastPrice.get(live.record.intent.instrument.token),
          save: () => this.save(),
          finish: (reason, level) => this.end(live, reason, level ?? 'info'),
          fail: (reason) => this.fail(live, reason),
          maxModifications: this.deps.maxModifications ?? 25,
        });
      })
      .catch((err: unknown) => {
        this.deps.core.options.logger.error(
          { err, strategyId: live.record.strategyId, bracket: live.record.intent.id },
          'bracket step failed; the next event tries again',
        );
      });
  }

  /**
   * Someone else cancelled a leg: the bracket ends, and its other leg is cancelled too
   * (nothing would manage it, and after a manual exit it would sell again).
   */
  private abandon(live: LiveBracket, reason: string): void {
    const { core } = this.deps;
    const { strategyId, legs } = live.record;
    for (const leg of Object.values(legs)) {
      const order = core.tracker.byIntent(strategyId, leg.intentId);
      if (order === undefined || isFinal(order.status)) continue;
      core.requestCancel(order).catch((err: unknown) => {
        if (err instanceof SessionError) core.pause(err);
      });
    }
    this.end(live, reason);
  }

  /** Stops managing a bracket: its working legs are left to whoever ended it. */
  private end(live: LiveBracket, reason: string, level: 'info' | 'warn' | 'error' = 'warn'): void {
    const { strategyId, intent } = live.record;
    if (!this.live.delete(bracketKey(strategyId, intent.id))) return;
    this.save();
    this.deps.core.options.logger[level](
      { strategyId, bracket: intent.id, token: intent.instrument.token },
      `bracket ended: ${reason}`,
    );
    const token = intent.instrument.token;
    if (![...this.live.values()].some((b) => b.record.intent.instrument.token === token)) {
      this.feeds.get(token)?.unsubscribe();
      this.feeds.delete(token);
    }
  }

  private save(): void {
    // After the stop the journal may be closed; the brackets stay as last written.
    if (!this.stopped) this.deps.store.save(this.records());
  }

  /**
   * Follows the last prices of a bracket's instrument: a trailing stop moves with them,
   * and a stop is never placed at a trigger the price already passed.
   */
  private follow(intent: BracketIntent): void {
    const { marks } = this.deps;
    const token = intent.instrument.token;
    if (marks === undefined || this.feeds.has(token)) return;
    this.feeds.set(
      token,
      marks(token).subscribe((ltp) => this.onPrice(token, ltp)),
    );
  }
}
