import type { Logger } from 'pino';
import { SessionError } from '../api/errors/session-error.ts';
import type { Clock } from '../clock/clock.ts';
import type { RoutedIntent } from '../domain/intents.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import type { TrackedOrder } from './tracked-order.ts';

/** What {@link IntentOutcomes} reports through. */
export interface IntentOutcomesDeps {
  clock: Clock;
  logger: Logger;
  /** Journals, then publishes. */
  emit(event: OrderEvent): void;
  /** Pauses trading on a refused session. */
  pause(err: SessionError): void;
  /** Why trading is paused, if it is. */
  pausedReason(): string | undefined;
  /** Keeps an intent for after the pause. */
  defer(intent: RoutedIntent, reason: string): void;
  byIntent(strategyId: string, intentId: string): TrackedOrder | undefined;
}

/**
 * How an intent that does not go through ends, as an event rather than an exception:
 * a risk or state denial, a broker's refusal, or a pause on a refused session (the
 * intent then waits for the new token).
 */
export class IntentOutcomes {
  constructor(private readonly deps: IntentOutcomesDeps) {}

  /** Refuses an intent with an `OrderDenied` event. */
  deny(intent: RoutedIntent, reason: string): void {
    this.deps.logger.warn(
      { strategyId: intent.strategyId, intentId: intent.id, reason },
      'intent denied',
    );
    this.deps.emit({
      type: 'OrderDenied',
      strategyId: intent.strategyId,
      intentId: intent.id,
      at: this.deps.clock.now(),
      intent,
      reason,
    });
  }

  /** Turns a broker failure into a pause (and deferral), a rejection or a denial. */
  brokerError(intent: RoutedIntent, err: unknown): void {
    if (err instanceof SessionError) {
      this.deps.pause(err);
      this.deps.defer(intent, `trading paused: ${this.deps.pausedReason()}`);
      return;
    }
    const reason = err instanceof Error ? err.message : String(err);
    if (intent.kind === 'place') {
      const order = this.deps.byIntent(intent.strategyId, intent.id);
      this.deps.emit({
        type: 'OrderRejected',
        strategyId: intent.strategyId,
        intentId: intent.id,
        tag: order?.tag ?? '',
        at: this.deps.clock.now(),
        reason,
      });
      return;
    }
    this.deny(intent, reason);
  }
}
