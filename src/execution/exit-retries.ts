import { type Subscription, timer } from 'rxjs';
import type { RoutedIntent, SquareOffIntent } from '../domain/intents.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import type { EngineCore } from './engine-core.ts';
import type { ExitRetryOptions } from './exit-retry-options.ts';

/** A square-off exit whose end is awaited. */
interface Watched {
  strategyId: string;
  token: number;
  /** Id of the first square-off of the chain; tries are named after it. */
  rootId: string;
  reason: string | undefined;
  /** Tries made before this one. */
  attempt: number;
}

/** An exit given up on: the position it was to close may still be open. */
export interface ExitGivenUp {
  strategyId: string;
  token: number;
  /** The square-off's id (the first of the chain). */
  intentId: string;
  /** Tries made, the first included. */
  tries: number;
  /** The last refusal's reason. */
  reason: string;
  at: number;
}

/**
 * Tries a square-off's exit again when it is refused (`OrderRejected`: the broker's
 * rejection, or an outcome unknown twice; or `OrderDenied` by a risk limit), so that a refusal does not leave a position
 * open into the close. Each try is a fresh square-off of that strategy and instrument
 * through the engine's guards, sized from the position at that moment; it places nothing
 * when the position is already flat. An order still working in the instrument (the
 * strategy's own, or a cancel not yet confirmed) could fill while an exit is sent, so a
 * try that finds one asks to cancel it and looks again after the next wait. Tries are
 * bounded in number and time; the last refusal is reported through `gaveUp`.
 */
export class ExitRetries {
  /** Exits awaited, by strategy and intent id. */
  private readonly watched = new Map<string, Watched>();
  /** The chain each try's square-off belongs to, by its intent id (one entry a try). */
  private readonly tries = new Map<string, Omit<Watched, 'token'>>();
  private readonly timers = new Set<Subscription>();
  private stopped = false;

  constructor(
    private readonly core: EngineCore,
    private readonly submit: (intent: RoutedIntent) => Promise<void>,
    private readonly options: ExitRetryOptions,
    private readonly gaveUp: (given: ExitGivenUp) => void,
  ) {}

  /** A square-off is about to place `exitId` for `token`: its refusal will be tried again. */
  watch(squareOff: SquareOffIntent & { strategyId: string }, exitId: string, token: number): void {
    if (this.stopped || this.options.attempts <= 0) return;
    const chain = this.tries.get(squareOff.id) ?? {
      strategyId: squareOff.strategyId,
      rootId: squareOff.id,
      reason: squareOff.reason,
      attempt: 0,
    };
    this.watched.set(key(squareOff.strategyId, exitId), { ...chain, token });
  }

  /** Follows the engine's events: an awaited exit ends, or is refused and tried again. */
  onEvent(e: OrderEvent): void {
    if (this.watched.size === 0) return;
    const refusal = e.type === 'OrderRejected' || e.type === 'OrderDenied';
    if (!refusal && e.type !== 'OrderFilled' && e.type !== 'OrderCancelled') return;
    const k = key(e.strategyId, e.intentId);
    const w = this.watched.get(k);
    if (w === undefined) return;
    this.watched.delete(k);
    // A denial too (a risk limit an exit still meets): tried again, and alerted at the end.
    if (refusal) this.refused(w, e.reason, e.at);
  }

  private refused(w: Watched, reason: string, at: number): void {
    const { logger } = this.core.options;
    const where = { strategyId: w.strategyId, token: w.token, intentId: w.rootId };
    if (w.attempt >= this.options.attempts) {
      logger.error(
        { ...where, tries: w.attempt + 1, reason },
        'square-off exit refused on every try: giving up, the position may still be open',
      );
      this.gaveUp({ ...where, tries: w.attempt + 1, reason, at });
      return;
    }
    this.later(w, reason);
  }

  /** Schedules the next try of `w`'s chain. */
  private later(w: Watched, reason: string): void {
    if (this.stopped) return;
    const { clock, logger } = this.core.options;
    const delayMs = Math.min(
      Math.max(this.options.maxDelayMs, this.options.firstDelayMs),
      this.options.firstDelayMs * 2 ** w.attempt,
    );
    const attempt = w.attempt + 1;
    logger.warn(
      {
        strategyId: w.strategyId,
        token: w.token,
        intentId: w.rootId,
        reason,
        attempt,
        of: this.options.attempts,
        inMs: delayMs,
      },
      'square-off exit refused: trying again',
    );
    const sub = timer(delayMs, clock.scheduler).subscribe(() => {
      this.timers.delete(sub);
      this.attempt({ ...w, attempt }, reason);
    });
    this.timers.add(sub);
  }

  private attempt(w: Watched, lastReason: string): void {
    if (this.stopped) return;
    const { core } = this;
    const working = core.tracker
      .active()
      .filter((o) => o.strategyId === w.strategyId && o.intent.instrument.token === w.token);
    if (working.length > 0) {
      // An exit sized now could be doubled by one of these filling: cancel, look again.
      core.options.logger.warn(
        { strategyId: w.strategyId, token: w.token, working: working.map((o) => o.tag) },
        'square-off exit: orders still working in the instrument; cancelling them before the exit',
      );
      for (const o of working)
        core.requestCancel(o).catch((err: unknown) => {
          core.options.logger.warn({ err, tag: o.tag }, 'square-off exit: cancel failed');
        });
      if (w.attempt >= this.options.attempts) this.refused(w, lastReason, core.options.clock.now());
      else this.later(w, 'orders still working in the instrument');
      return;
    }
    // Reserved for strategies (check-intent.ts); the exit is `<id>:<token>` as for any square-off.
    const id = `${w.rootId}#retry${w.attempt}`;
    this.tries.set(id, {
      strategyId: w.strategyId,
      rootId: w.rootId,
      reason: w.reason,
      attempt: w.attempt,
    });
    // Kept until stop: a try deferred (a pause, the close) is watched when it goes out.
    void this.submit({
      kind: 'squareOff',
      id,
      strategyId: w.strategyId,
      token: w.token,
      ...(w.reason === undefined ? {} : { reason: w.reason }),
    });
  }

  /** No more tries: stopping. */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers) t.unsubscribe();
    this.timers.clear();
    this.watched.clear();
  }
}

function key(strategyId: string, intentId: string): string {
  return `${strategyId}\u0000${intentId}`;
}
