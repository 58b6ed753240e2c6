import type { OrderEvent } from '../domain/order-events.ts';
import type { TrackedOrder } from './tracked-order.ts';

/** A fill as the journal keeps it (money in paise). */
export interface JournalFill {
  fillId: string;
  tag: string;
  strategyId: string;
  token: number;
  symbol: string;
  side: 'B' | 'S';
  quantity: number;
  price: number;
  at: number;
}

/** What a journal holds after a restart. */
export interface JournalSnapshot {
  orders: TrackedOrder[];
  fills: JournalFill[];
}

/** What one {@link Journal.commit} writes, all or nothing. */
export interface JournalEntry {
  /** Orders in their new state, keyed by tag. */
  orders?: readonly TrackedOrder[];
  fill?: JournalFill;
  /**
   * Events already published whose rows were left for a later write (an `OrderSubmitted`
   * is bookkeeping once its order row is in: its row follows the send). Written first, in
   * order, so the journal's events keep the order they were published in.
   */
  deferredEvents?: readonly OrderEvent[];
  event?: OrderEvent;
  at: number;
}

/**
 * Execution's durable memory. Every intent, order state change and fill is written
 * here before it is acted on, so a crash loses nothing and a restart places nothing
 * twice. {@link SqliteJournal} is the implementation; {@link MemoryJournal} serves tests
 * and backtests that need no durability.
 */
export interface Journal {
  /**
   * Writes orders, a fill and an event in one transaction. Returns false (and writes
   * nothing) when the fill is already there.
   */
  commit(entry: JournalEntry): boolean;
  /**
   * A new order's first row, written before its request is sent: durable when this returns
   * (as a commit is), possibly by a faster route than a commit. Optional: without it the
   * row is a commit of its own.
   */
  commitNew?(order: TrackedOrder, at: number): void;
  /** What was written, for recovery. */
  load(): JournalSnapshot;
  /** A small durable value (e.g. the kill switch's day). */
  getMeta(key: string): string | undefined;
  setMeta(key: string, value: string): void;
  /** Housekeeping between orders (e.g. a WAL checkpoint); optional. */
  checkpoint?(): void;
  close(): void;
}

/** Options of {@link MemoryJournal}. */
export interface MemoryJournalOptions {
  /**
   * Keep each order's state (a copy at each write) and every event, for a later
   * {@link MemoryJournal.load} or a test that reads `events`. Default true. A run that
   * no restart reads (a backtest: its kernel starts once, on an empty journal) turns it
   * off: the copies cost CPU at every write, and the events a list that grows all run.
   * Fills (their ids keep a fill from being booked twice) and meta values are kept either way.
   */
  history?: boolean;
}

/** A journal in memory: no durability. */
export class MemoryJournal implements Journal {
  private readonly orders = new Map<string, TrackedOrder>();
  private readonly fills = new Map<string, JournalFill>();
  private readonly meta = new Map<string, string>();
  private readonly history: boolean;
  /** Every event written, in order (none without `history`). */
  readonly events: OrderEvent[] = [];

  constructor(options: MemoryJournalOptions = {}) {
    this.history = options.history ?? true;
  }

  commit(entry: JournalEntry): boolean {
    if (entry.fill !== undefined && this.fills.has(entry.fill.fillId)) return false;
    if (entry.fill !== undefined) this.fills.set(entry.fill.fillId, entry.fill);
    if (!this.history) return true;
    for (const order of entry.orders ?? []) this.orders.set(order.tag, structuredClone(order));
    if (entry.deferredEvents !== undefined) this.events.push(...entry.deferredEvents);
    if (entry.event !== undefined) this.events.push(entry.event);
    return true;
  }

  /** What was written: without `history`, the fills and no orders. */
  load(): JournalSnapshot {
    return {
      orders: [...this.orders.values()].map((o) => structuredClone(o)),
      fills: [...this.fills.values()],
    };
  }

  getMeta(key: string): string | undefined {
    return this.meta.get(key);
  }

  setMeta(key: string, value: string): void {
    this.meta.set(key, value);
  }

  close(): void {}
}
