import type { OrderEvent } from './order-events.ts';
import type { TrackedOrder } from './tracked-order.ts';

/** A fill as the journal keeps it (money in paise). */
export interface JournalFill {
  fillId: string;
  tag: string;
  strategyId: string;
  token: string;
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

/**
 * Execution's durable memory. Every intent, order state change and fill is written
 * here before it is acted on, so a crash loses nothing and a restart places nothing
 * twice. {@link SqliteJournal} is the implementation; {@link MemoryJournal} serves tests
 * and backtests that need no durability.
 */
export interface Journal {
  /** An order, before it is sent and after every change. */
  saveOrder(order: TrackedOrder, at: number): void;
  /** A fill, before positions change; returns false if it was already there. */
  saveFill(fill: JournalFill): boolean;
  /** Every event, for the audit trail and `tiqs-runner orders`. */
  saveEvent(event: OrderEvent): void;
  /** What was written, for recovery. */
  load(): JournalSnapshot;
  /** Housekeeping between orders (e.g. a WAL checkpoint); optional. */
  checkpoint?(): void;
  close(): void;
}

/** A journal in memory: no durability. */
export class MemoryJournal implements Journal {
  private readonly orders = new Map<string, TrackedOrder>();
  private readonly fills = new Map<string, JournalFill>();
  readonly events: OrderEvent[] = [];

  saveOrder(order: TrackedOrder, _at: number): void {
    this.orders.set(order.tag, structuredClone(order));
  }

  saveFill(fill: JournalFill): boolean {
    if (this.fills.has(fill.fillId)) return false;
    this.fills.set(fill.fillId, fill);
    return true;
  }

  saveEvent(event: OrderEvent): void {
    this.events.push(event);
  }

  load(): JournalSnapshot {
    return {
      orders: [...this.orders.values()].map((o) => structuredClone(o)),
      fills: [...this.fills.values()],
    };
  }

  close(): void {}
}
