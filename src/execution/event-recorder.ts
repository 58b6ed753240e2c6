import { type Observable, Subject } from 'rxjs';
import type { Clock } from '../clock/clock.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import { fillDay } from './fill-day.ts';
import type { Journal, JournalEntry } from './journal.ts';
import type { OrderTracker } from './order-tracker.ts';
import type { PositionBook } from './position-book.ts';
import type { TrackedOrder } from './tracked-order.ts';

/** What {@link EventRecorder} writes to and reads from. */
export interface EventRecorderDeps {
  clock: Clock;
  journal: Journal;
  /** The tracked orders, to journal an event with its order. */
  orders: Pick<OrderTracker, 'byTag' | 'byIntent'>;
  positions: PositionBook;
  /** Runs once per fill, booked and not yet published (marking and the kill switch). */
  afterFill: () => void;
}

/**
 * The journal's writer and the event stream: every event is journalled (with its
 * order, and its fill booked into positions, in one transaction) before it is
 * published. The one exception is a placement's `OrderSubmitted` (see {@link submitted}):
 * its order row, which carries the tag, is written before the send; the event's own row
 * is bookkeeping and goes with the next write. Owns the closed flag: once the journal is
 * closed, nothing more is written or published, and the next start reconciles by tag.
 */
export class EventRecorder {
  private readonly subject = new Subject<OrderEvent>();
  /** Every order event, in order. */
  readonly events$: Observable<OrderEvent> = this.subject.asObservable();
  private closed = false;
  /** Published events whose rows wait for the next write, in order. */
  private deferred: OrderEvent[] = [];

  constructor(private readonly deps: EventRecorderDeps) {}

  /** The journal is closed: late answers are no longer written. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Closes the journal, once. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.deps.journal.close();
  }

  /** Writes an order's state (with the event rows waiting, in the same transaction). */
  persist(order: TrackedOrder): void {
    if (this.closed) return;
    this.write({ orders: [order], at: this.deps.clock.now() });
  }

  /**
   * A placement about to be sent: its order rows (the new tag; a re-placement also closes
   * the attempt it supersedes) are written now, alone, as one statement where it is one
   * row, so the tag is durable before the request leaves and the send waits for nothing
   * else. The event is published now too, as before; its row waits for the next write
   * (the answer's, a poll's, or {@link flush}), which keeps the journal's events in order.
   * A crash before then loses only that row: recovery reads orders and fills, not events.
   */
  submitted(orders: readonly TrackedOrder[], event: OrderEvent): void {
    if (this.closed) return;
    const { journal } = this.deps;
    const [first] = orders;
    // A new tag's one row may take the journal's faster durable route (its pre-send log).
    if (orders.length === 1 && first !== undefined && journal.commitNew !== undefined)
      journal.commitNew(first, event.at);
    else journal.commit({ orders, at: event.at });
    this.deferred.push(event);
    this.subject.next(event);
  }

  /** Writes the event rows still waiting (bookkeeping between orders, and at close). */
  flush(): void {
    if (this.closed || this.deferred.length === 0) return;
    this.write({ at: this.deps.clock.now() });
  }

  /** Commits `entry` with the event rows waiting written first; they stay if it writes nothing. */
  private write(entry: JournalEntry): boolean {
    if (this.deferred.length === 0) return this.deps.journal.commit(entry);
    const deferredEvents = this.deferred;
    this.deferred = [];
    let written = false;
    try {
      written = this.deps.journal.commit({ ...entry, deferredEvents });
    } finally {
      if (!written) this.deferred = deferredEvents.concat(this.deferred);
    }
    return written;
  }

  /** Journals an event (with its order and fill, in one transaction), then publishes it. */
  emit(event: OrderEvent): void {
    // After close nothing is written or published; the next start reconciles by tag.
    if (this.isClosed) return;
    // By the event's own tag first: after a cancel-and-replace the intent's latest order
    // is the new one, and a late fill of the old one must be written to the old one's row.
    const order =
      'tag' in event && event.tag !== ''
        ? (this.deps.orders.byTag(event.tag) ??
          this.deps.orders.byIntent(event.strategyId, event.intentId))
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
      const fresh = this.write({
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
        this.deps.positions.applyFill(
          event.strategyId,
          instrument.token,
          instrument.symbol,
          side,
          event.fillQuantity,
          event.fillPrice,
          fillDay(order, event.at),
        );
      }
      // Marked and checked once per fill, before anyone hears of it.
      this.deps.afterFill();
      this.subject.next(event);
      return;
    }
    this.write({
      ...(order === undefined ? {} : { orders: [order] }),
      event,
      at: event.at,
    });
    this.subject.next(event);
  }
}
