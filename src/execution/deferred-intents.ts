import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import type { Clock } from '../clock/clock.ts';
import type { CancelIntent, ModifyIntent, RoutedIntent } from '../domain/intents.ts';
import type { OrderEvent } from '../domain/order-events.ts';

/** With no known next open (no calendar yet), deferred intents look again this often. */
const RECHECK_MS = 60_000;

/** What {@link DeferredIntents} needs from the engine. */
export interface DeferredIntentsDeps {
  clock: Clock;
  logger: Logger;
  /** Intents are still taken (false once stopping). */
  accepting: () => boolean;
  /** Paused or unreconciled: something else (resume, the first read of the books) flushes. */
  held: () => boolean;
  submit: (intent: RoutedIntent) => Promise<void>;
  emit: (event: OrderEvent) => void;
  deny: (intent: RoutedIntent, reason: string) => void;
}

/**
 * Intents waiting for the open, a fresh token, a calendar or reconciliation, in the
 * order they came, and the one timer that wakes them.
 */
export class DeferredIntents {
  private readonly queue: RoutedIntent[] = [];
  private timer: Subscription | undefined;

  constructor(private readonly deps: DeferredIntentsDeps) {}

  /** How many intents wait. */
  get size(): number {
    return this.queue.length;
  }

  /** The intents that wait, oldest first (`ctx.openOrders` shows the placements). */
  waiting(): readonly RoutedIntent[] {
    return this.queue;
  }

  /** Keeps an intent for later; while stopping it is denied instead. */
  defer(intent: RoutedIntent, reason: string, until?: number): void {
    const { clock } = this.deps;
    if (!this.deps.accepting()) {
      // Stopping: nothing may wait for a later open or a new token.
      this.deps.deny(intent, `${reason}; not kept: stopping`);
      return;
    }
    this.queue.push(intent);
    this.deps.emit({
      type: 'IntentDeferred',
      strategyId: intent.strategyId,
      intentId: intent.id,
      at: clock.now(),
      intent,
      reason,
      ...(until === undefined ? {} : { until }),
    });
    // While paused, resume() flushes, and the first read of the books after a restart
    // does while unreconciled; otherwise wake at the open, or look again soon.
    if (this.deps.held() || this.timer !== undefined) return;
    const delay = until === undefined ? RECHECK_MS : until - clock.now();
    this.timer = clock.scheduler.schedule(() => {
      this.timer = undefined;
      this.flush();
    }, delay);
  }

  /** Submits every waiting intent again, in order. */
  flush(): void {
    const queued = this.queue.splice(0);
    for (const intent of queued) void this.deps.submit(intent);
  }

  /**
   * Drops every waiting intent (the engine is stopping); returns what that leaves
   * undone in words (a dropped placement or square-off, an exit included, is not done).
   */
  dropAll(): string[] {
    this.timer?.unsubscribe();
    this.timer = undefined;
    const dropped = this.queue.splice(0);
    for (const intent of dropped) {
      this.deps.logger.warn(
        { strategyId: intent.strategyId, intentId: intent.id, kind: intent.kind },
        'stopping: a deferred intent is dropped, never sent',
      );
    }
    const undone = dropped.filter(
      (i) => i.kind === 'place' || i.kind === 'squareOff' || i.kind === 'bracket',
    );
    return undone.length === 0
      ? []
      : [
          `deferred intent(s) dropped at the stop, never sent: ${undone
            .map((i) => `${i.strategyId}/${i.id} (${i.kind})`)
            .join(', ')}`,
        ];
  }

  /**
   * A cancel or modify whose target is still deferred acts on the deferred intent, not
   * at the broker (where there is no order yet): a cancel withdraws the placement (an
   * `OrderDenied` event says so), a modify changes it before it goes out. One whose
   * target has a deferred cancel or modify waits behind it, in order. True when taken.
   */
  actOn(intent: (CancelIntent | ModifyIntent) & { strategyId: string }): boolean {
    const concerns = (i: RoutedIntent): boolean =>
      i.strategyId === intent.strategyId &&
      (((i.kind === 'place' || i.kind === 'bracket') && i.id === intent.target) ||
        ((i.kind === 'cancel' || i.kind === 'modify') && i.target === intent.target));
    // A bracket deferred whole (its entry has the bracket's id) is withdrawn whole by a
    // cancel, as a deferred placement is: a paused strategy must not enter at the resume.
    const bracketAt =
      intent.kind === 'cancel'
        ? this.queue.findIndex((i) => i.kind === 'bracket' && concerns(i))
        : -1;
    const bracket = this.queue[bracketAt];
    if (bracket !== undefined) {
      this.queue.splice(bracketAt, 1);
      this.deps.logger.info(
        { strategyId: intent.strategyId, intentId: intent.id, target: intent.target },
        'cancel of a deferred bracket: withdrawn before it was sent',
      );
      this.deps.deny(
        bracket,
        `cancelled by intent "${intent.id}" before it was sent (it was deferred)`,
      );
      return true;
    }
    const at = this.queue.findIndex((i) => i.kind === 'place' && concerns(i));
    const waiting = this.queue[at];
    if (waiting?.kind === 'place') {
      if (intent.kind === 'cancel') {
        this.queue.splice(at, 1);
        this.deps.logger.info(
          { strategyId: intent.strategyId, intentId: intent.id, target: intent.target },
          'cancel of a deferred placement: withdrawn before it was sent',
        );
        this.deps.deny(
          waiting,
          `cancelled by intent "${intent.id}" before it was sent (it was deferred)`,
        );
        return true;
      }
      this.queue[at] = {
        ...waiting,
        ...(intent.quantity === undefined ? {} : { quantity: intent.quantity }),
        ...(intent.price === undefined ? {} : { price: intent.price }),
        ...(intent.triggerPrice === undefined ? {} : { triggerPrice: intent.triggerPrice }),
        ...(intent.orderType === undefined ? {} : { orderType: intent.orderType }),
      };
      this.deps.emit({
        type: 'IntentDeferred',
        strategyId: intent.strategyId,
        intentId: intent.id,
        at: this.deps.clock.now(),
        intent,
        reason: `applied to the deferred placement "${intent.target}", which goes out changed`,
      });
      return true;
    }
    if (!this.queue.some(concerns)) return false;
    this.defer(intent, `waiting behind a deferred intent for "${intent.target}"`);
    return true;
  }
}
