import type { Logger } from 'pino';
import type { OrderIntent } from '../domain/intents.ts';
import type { Product } from '../domain/order-params.ts';
import type { Journal } from '../execution/journal.ts';

/** Journal meta key of the strategies paused by hand. */
const PAUSED_META = 'controls.paused';
/** Journal meta key of the recent controls (who asked what). */
const LOG_META = 'controls.log';
/** A paused strategy's dropped entries are logged (at info) at most this often, market ms. */
const DROP_LOG_MS = 60_000;
/** Controls kept in the journal's log; older ones drop off (the log lines keep them all). */
const LOG_SIZE = 200;

/** What an operator can ask of a running bot. */
export type ControlAction = 'pause' | 'resume' | 'squareOff' | 'squareOffAll' | 'killSwitch';

/**
 * How a control ended: `done` (sent), `unchanged` (already so), `deferred` (queued: trading
 * is paused or reconciling; sent when it resumes) or `refused` (an unknown strategy, the
 * engine denied it, the bot is stopping).
 */
type ControlOutcome = 'done' | 'unchanged' | 'deferred' | 'refused';

/** One control as the journal keeps it. */
export interface ControlRecord {
  /** Market time (the kernel's clock), epoch ms. */
  at: number;
  /** Who asked: `dashboard`, `telegram:<chat>`, `api`, … */
  who: string;
  action: ControlAction;
  strategy?: string;
  token?: number;
  product?: Product;
  outcome: ControlOutcome;
  /** What was done or why not, in a few words. */
  detail: string;
}

/**
 * The operators' controls a journal keeps: the strategies paused by hand, which stay
 * paused across a restart until resumed, and the recent controls with who asked. While a
 * strategy is paused its entries (place, bracket) are dropped; modifies, cancels and
 * square-offs still go, so it can leave what it holds.
 */
export class ControlState {
  private readonly pausedIds: Set<string>;
  private readonly records: ControlRecord[];
  /** Per paused strategy: when its drops were last logged, and how many since. */
  private readonly drops = new Map<string, { loggedAt: number; since: number }>();

  constructor(
    private readonly journal: Journal,
    private readonly logger: Logger,
    /** Market time, epoch ms (the kernel's clock): paces the dropped-entry lines. */
    private readonly now: () => number = Date.now,
  ) {
    this.pausedIds = new Set(this.read<string[]>(PAUSED_META) ?? []);
    this.records = this.read<ControlRecord[]>(LOG_META) ?? [];
  }

  /** Whether `strategyId` is paused by hand. */
  isPaused(strategyId: string): boolean {
    return this.pausedIds.has(strategyId);
  }

  /** Strategies paused by hand. */
  paused(): string[] {
    return [...this.pausedIds].sort();
  }

  /**
   * Who paused `strategyId` (the latest control that did), or undefined when it is not
   * paused or the journal's log no longer holds that control.
   */
  pausedBy(strategyId: string): string | undefined {
    if (!this.pausedIds.has(strategyId)) return undefined;
    for (let i = this.records.length - 1; i >= 0; i--) {
      const r = this.records[i] as ControlRecord;
      if (r.outcome !== 'done' && r.outcome !== 'deferred') continue;
      if (r.action === 'squareOffAll' || (r.action === 'pause' && r.strategy === strategyId))
        return r.who;
    }
    return undefined;
  }

  /**
   * False for an entry of a paused strategy: it is dropped. Logged at info, at most once
   * a minute per strategy with the count since, so a pause kept from an earlier run is
   * seen in the log without flooding it.
   */
  allows(intent: OrderIntent, strategyId: string): boolean {
    if (!this.pausedIds.has(strategyId)) return true;
    if (intent.kind !== 'place' && intent.kind !== 'bracket') return true;
    const now = this.now();
    const seen = this.drops.get(strategyId);
    if (seen !== undefined && now - seen.loggedAt < DROP_LOG_MS) {
      seen.since++;
      return false;
    }
    this.drops.set(strategyId, { loggedAt: now, since: 0 });
    this.logger.info(
      {
        component: 'controls',
        strategy: strategyId,
        intent: intent.id,
        droppedSinceLastLine: seen?.since ?? 0,
      },
      'strategy paused by an operator: entry dropped (resume it from the dashboard or /resume)',
    );
    return false;
  }

  /** Pauses or resumes `strategyId`; false when it already was so. */
  setPaused(strategyId: string, paused: boolean): boolean {
    if (this.pausedIds.has(strategyId) === paused) return false;
    if (paused) this.pausedIds.add(strategyId);
    else this.pausedIds.delete(strategyId);
    this.drops.delete(strategyId);
    this.write(PAUSED_META, [...this.pausedIds]);
    return true;
  }

  /** Keeps a control in the journal. */
  record(entry: ControlRecord): void {
    this.records.push(entry);
    if (this.records.length > LOG_SIZE) this.records.splice(0, this.records.length - LOG_SIZE);
    this.write(LOG_META, this.records);
  }

  /** The most recent controls, newest last. */
  recent(limit = 20): ControlRecord[] {
    return this.records.slice(-limit);
  }

  private read<T>(key: string): T | undefined {
    const text = this.journal.getMeta(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  private write(key: string, value: unknown): void {
    // A control that comes as the bot stops may find the journal closed: the log line stays.
    try {
      this.journal.setMeta(key, JSON.stringify(value));
    } catch (err) {
      this.logger.warn({ component: 'controls', err }, 'could not write a control to the journal');
    }
  }
}
