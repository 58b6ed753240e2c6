import type { SessionError } from '../api/errors/session-error.ts';
import type { PlaceIntent, RoutedIntent, SquareOffIntent } from '../domain/intents.ts';
import type { MarketSessions } from '../domain/market-sessions.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import type { ExecutionEngineOptions } from './engine-options.ts';
import type { Journal } from './journal.ts';
import type { OrderTracker } from './order-tracker.ts';
import type { PositionBook } from './position-book.ts';
import type { RiskLimits } from './risk/risk-limits.ts';
import type { TrackedOrder } from './tracked-order.ts';

/**
 * What the engine's parts (placement, amendment, square-off, stop) share: the
 * engine's collaborators and the few operations that cross parts. The engine builds
 * one and hands it to each part, so no part reaches into another's state.
 */
export interface EngineCore {
  readonly options: ExecutionEngineOptions;
  readonly tracker: OrderTracker;
  readonly journal: Journal;
  readonly positions: PositionBook;
  readonly limits: RiskLimits;
  /** The kill switch has tripped today. */
  readonly killed: boolean;
  /** Intents are still taken (false once stopping). */
  readonly accepting: boolean;
  /** Journals an event (with its order and fill), then publishes it. */
  emit(event: OrderEvent): void;
  /** Writes an order's state. */
  persist(order: TrackedOrder): void;
  /**
   * A placement about to be sent: writes its order rows (the tag) now and publishes its
   * `OrderSubmitted`, whose own row follows with the next write (see EventRecorder).
   */
  submitted(orders: readonly TrackedOrder[], event: OrderEvent): void;
  /** Refuses an intent with an `OrderDenied` event. */
  deny(intent: RoutedIntent, reason: string): void;
  /** Keeps an intent for later (the open, a new token, reconciliation). */
  defer(intent: RoutedIntent, reason: string, until?: number): void;
  /** The current calendar, if one has loaded. */
  sessions(): MarketSessions | undefined;
  /** Pauses trading on a refused session. */
  pause(err: SessionError): void;
  /** Trading is paused (a refused session, until a new token). */
  paused(): boolean;
  /** Turns a broker failure into a pause, a rejection or a denial. */
  onBrokerError(intent: RoutedIntent, err: unknown): void;
  /** Places (or re-places `reuse`) an order; `system` orders may reuse an intent id. */
  place(
    intent: PlaceIntent & { strategyId: string },
    reuse?: TrackedOrder,
    system?: boolean,
  ): Promise<void>;
  /** Asks once to cancel an order; throws only for a refused session. */
  requestCancel(order: TrackedOrder): Promise<void>;
  /** A square-off is about to place exit `exitId`: a refusal of it is tried again. */
  watchExit(
    squareOff: SquareOffIntent & { strategyId: string },
    exitId: string,
    token: number,
  ): void;
}
