import { type Observable, Subject } from 'rxjs';
import type { Clock } from '../clock/clock.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import type { Journal } from './journal.ts';
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
 * published. Owns the closed flag: once the journal is closed, nothing more is
 * written or published, and the next start reconciles by tag.
 */
export class EventRecorder {
  private readonly subject = new Subject<OrderEvent>();
  /** Every order event, in order. */
  readonly events$: Observable<OrderEvent> = this.subject.asObservable();
  private closed = false;

  constructor(private readonly deps: EventRecorderDeps) {}

  /** The journal is closed: late answers are no longer written. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Closes the journal, once. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.deps.journal.close();
  }

  /** Writes an order's state. */
  persist(order: TrackedOrder): void {
    if (this.closed) return;
    this.deps.journal.commit({ orders: [order], at: this.deps.clock.now() });
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
      const fresh = this.deps.journal.commit({
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
        );
      }
      // Marked and checked once per fill, before anyone hears of it.
      this.deps.afterFill();
      this.subject.next(event);
      return;
    }
    this.deps.journal.commit({
      ...(order === undefined ? {} : { orders: [order] }),
      event,
      at: event.at,
    });
    this.subject.next(event);
  }
}
