import { type Subscription, timer } from 'rxjs';
import type { RoutedIntent, SquareOffIntent } from '../domain/intents.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import type { Product } from '../domain/order-params.ts';
import { FRAMEWORK_SQUARE_OFF, retryIntentId } from '../strategy/check-intent.ts';
import type { EngineCore } from './engine-core.ts';
import type { ExitRetryOptions } from './exit-retry-options.ts';
import { isSquareOffExit } from './exit-slices.ts';
import type { TrackedOrder } from './tracked-order.ts';

/** One square-off's exit in one instrument, followed across its tries. */
interface Chain {
  strategyId: string;
  token: number;
  /** Id of the first square-off of the chain; tries are named after it. */
  rootId: string;
  reason: string | undefined;
  /** The square-off's product scope, if any (the one before the close: `I`). */
  product: Product | undefined;
  /** Exits the broker refused so far. */
  refusals: number;
  /** The last refusal's reason. */
  lastReason: string;
  /** Time spent waiting on orders working in the instrument, without sending. */
  waitedMs: number;
  /** A wait past the tries' whole schedule was reported. */
  stuckReported: boolean;
}

/** An exit given up on: the position it was to close may still be open. */
export interface ExitGivenUp {
  strategyId: string;
  token: number;
  /** The square-off's id (the first of the chain). */
  intentId: string;
  /** Exits the broker refused. */
  refusals: number;
  /** Why no more are tried (or why none can be sent yet), with the last refusal's reason. */
  reason: string;
  at: number;
  /**
   * Not given up: the exit has waited on orders working in the instrument for longer than
   * the tries' whole schedule, and goes on waiting (reported once).
   */
  stillTrying?: true;
}

const key = (strategyId: string, intentId: string): string => `${strategyId}\u0000${intentId}`;

/**
 * Tries the exit of a framework square-off (before the close, the kill switch's, an
 * operator's) again when the broker refuses it, so that one refusal does not leave a
 * position open into the close. A refusal is an `OrderRejected`, or an `OrderCancelled`
 * with quantity left that the framework did not ask for (the exchange's market
 * protection, an operator). Each try is a fresh square-off of that strategy and
 * instrument, sized from the position when it goes out (nothing when flat), named
 * `<square-off id>#retry<n>`. Before sending, a try waits:
 *
 * - while trading is paused (a refused session): the exit could not go out;
 * - while an order of the strategy works in the instrument: it could fill while the exit
 *   is on its way and double it, so the try asks to cancel it and looks again (waits
 *   longer than the tries' whole schedule are reported once, and go on until the close);
 *   another square-off's exit (or a sibling slice) is left to work, and the try then
 *   sizes from what it leaves.
 *
 * The chain gives up, and reports through `gaveUp`, when the broker has refused
 * `attempts + 1` exits, when the market is closed (an intraday exit is never carried into
 * the next session: placement.ts), on a denial (a risk limit every try would meet), and
 * when the refused exit's outcome is not known for sure (an attempt placed again after
 * an unknown outcome, or an earlier day's: sending again blindly could double the exit).
 * A strategy's own square-off is not tried again: the strategy hears of the rejection
 * and decides.
 */
export class ExitRetries {
  /** Exits awaited, by strategy and exit intent id. */
  private readonly watched = new Map<string, Chain>();
  /** The chain of each try's square-off while it is being submitted, by strategy and id. */
  private readonly tries = new Map<string, Chain>();
  private readonly timers = new Set<Subscription>();
  private stopped = false;

  constructor(
    private readonly core: EngineCore,
    private readonly submit: (intent: RoutedIntent) => Promise<void>,
    private readonly options: ExitRetryOptions,
    private readonly gaveUp: (given: ExitGivenUp) => void,
  ) {}

  /** A square-off is about to place `exitId` for `token`: a refusal of it may be tried again. */
  watch(squareOff: SquareOffIntent & { strategyId: string }, exitId: string, token: number): void {
    if (this.stopped || this.options.attempts <= 0) return;
    const chain =
      this.tries.get(key(squareOff.strategyId, squareOff.id)) ??
      (FRAMEWORK_SQUARE_OFF.test(squareOff.id)
        ? {
            strategyId: squareOff.strategyId,
            token,
            rootId: squareOff.id,
            reason: squareOff.reason,
            product: squareOff.product,
            refusals: 0,
            lastReason: '',
            waitedMs: 0,
            stuckReported: false,
          }
        : undefined);
    // Each exit (a square-off's slices too) counts its own refusals from here.
    if (chain !== undefined) this.watched.set(key(squareOff.strategyId, exitId), { ...chain });
  }

  /** Follows the engine's events: an awaited exit ends, or is refused. */
  onEvent(e: OrderEvent): void {
    if (this.watched.size === 0) return;
    if (
      e.type !== 'OrderRejected' &&
      e.type !== 'OrderDenied' &&
      e.type !== 'OrderFilled' &&
      e.type !== 'OrderCancelled'
    )
      return;
    const k = key(e.strategyId, e.intentId);
    const chain = this.watched.get(k);
    if (chain === undefined) return;
    this.watched.delete(k);
    const order = this.core.tracker.byIntent(e.strategyId, e.intentId);
    if (e.type === 'OrderDenied') {
      // A risk limit or the session's end: every try would meet it.
      this.end(chain, `denied: ${e.reason}`);
    } else if (e.type === 'OrderCancelled') {
      // Cancelled with quantity left, not at the framework's request (the exchange's
      // market protection, an operator): what is left is still to close.
      if (order === undefined || order.cancelRequested === true) return;
      if (e.filledQuantity >= order.quantity) return;
      const left = order.quantity - e.filledQuantity;
      this.refuse(chain, `cancelled with ${left} left, not at the framework's request`, order);
    } else if (e.type === 'OrderRejected') {
      this.refuse(chain, e.reason, order);
    }
  }

  /** The broker refused a chain's exit: tried again, or given up. */
  private refuse(chain: Chain, reason: string, order: TrackedOrder | undefined): void {
    chain.refusals += 1;
    chain.lastReason = reason;
    if (order !== undefined && uncertain(order))
      this.end(chain, `its outcome is not known for sure, not sent again: ${reason}`);
    else if (chain.refusals > this.options.attempts)
      this.end(chain, `refused on every try: ${reason}`);
    else this.later(chain, chain.refusals - 1, 'square-off exit refused: trying again');
  }

  /** Gives up on a chain: logged, and reported once the event at hand has been heard. */
  private end(chain: Chain, why: string, stillTrying = false): void {
    const { clock, logger } = this.core.options;
    const given: ExitGivenUp = {
      strategyId: chain.strategyId,
      token: chain.token,
      intentId: chain.rootId,
      refusals: chain.refusals,
      reason: why,
      at: clock.now(),
      ...(stillTrying ? { stillTrying: true as const } : {}),
    };
    logger.error(
      given,
      stillTrying
        ? 'square-off exit stuck behind orders that will not cancel: the position is open'
        : 'square-off exit given up: the position may still be open',
    );
    // After the event's other listeners (its own rejection alert comes first).
    queueMicrotask(() => this.gaveUp(given));
  }

  /**
   * Counts a wait on working orders; past the tries' whole schedule without sending,
   * says so once (the chain goes on waiting, bounded by the close).
   */
  private waited(chain: Chain, step: number): void {
    chain.waitedMs += this.delayOf(step);
    if (chain.stuckReported || chain.waitedMs < this.scheduleMs) return;
    chain.stuckReported = true;
    this.end(
      chain,
      `orders working in the instrument have not gone for ${Math.round(chain.waitedMs / 1_000)} s: still asking to cancel them, no exit sent yet (last refusal: ${chain.lastReason})`,
      true,
    );
  }

  /** The wait number `step`: doubling from the first, capped. */
  private delayOf(step: number): number {
    const { firstDelayMs, maxDelayMs } = this.options;
    return Math.min(Math.max(maxDelayMs, firstDelayMs), firstDelayMs * 2 ** step);
  }

  /** Every wait of a chain's tries, added up (135 s with the defaults). */
  private get scheduleMs(): number {
    let total = 0;
    for (let step = 0; step < this.options.attempts; step++) total += this.delayOf(step);
    return total;
  }

  /** Looks at the chain again after the wait number `step` (doubling, capped). */
  private later(chain: Chain, step: number, msg: string): void {
    if (this.stopped) return;
    const { clock, logger } = this.core.options;
    const delayMs = this.delayOf(step);
    logger.warn(
      {
        strategyId: chain.strategyId,
        token: chain.token,
        intentId: chain.rootId,
        refusals: chain.refusals,
        of: this.options.attempts + 1,
        reason: chain.lastReason,
        inMs: delayMs,
      },
      msg,
    );
    const sub = timer(delayMs, clock.scheduler).subscribe(() => {
      this.timers.delete(sub);
      this.attempt(chain, step);
    });
    this.timers.add(sub);
  }

  private attempt(chain: Chain, step: number): void {
    if (this.stopped) return;
    const { core } = this;
    const now = core.options.clock.now();
    if (core.sessions()?.isOpen(now) !== true) {
      this.end(chain, `the market is closed (last refusal: ${chain.lastReason})`);
      return;
    }
    if (core.paused()) {
      this.later(chain, step, 'square-off exit: trading paused; waiting to try again');
      return;
    }
    const working = core.tracker
      .active()
      .filter(
        (o) =>
          o.strategyId === chain.strategyId &&
          o.intent.instrument.token === chain.token &&
          (chain.product === undefined || o.intent.product === chain.product),
      );
    if (working.length > 0) {
      // Other exits (a sibling slice, another square-off's) are left to work; the rest is
      // asked to cancel. Either way the try looks again later, spending no try, and sizes
      // from what they leave.
      const others = working.filter((o) => !isSquareOffExit(o));
      for (const o of others)
        core.requestCancel(o).catch((err: unknown) => {
          core.options.logger.warn({ err, tag: o.tag }, 'square-off exit: cancel failed');
        });
      this.waited(chain, step);
      this.later(
        chain,
        Math.min(step + 1, this.options.attempts),
        others.length === 0
          ? 'square-off exit: another exit is working in the instrument; waiting for it'
          : 'square-off exit: orders still working in the instrument; cancelling them first',
      );
      return;
    }
    const id = retryIntentId(chain.rootId, chain.refusals);
    const k = key(chain.strategyId, id);
    // A wait is counted from here afresh.
    chain.waitedMs = 0;
    chain.stuckReported = false;
    this.tries.set(k, chain);
    void this.submit({
      kind: 'squareOff',
      id,
      strategyId: chain.strategyId,
      token: chain.token,
      ...(chain.product === undefined ? {} : { product: chain.product }),
      ...(chain.reason === undefined ? {} : { reason: chain.reason }),
    }).finally(() => this.tries.delete(k));
  }

  /** No more tries: stopping. */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers) t.unsubscribe();
    this.timers.clear();
    this.watched.clear();
    this.tries.clear();
  }
}

/**
 * An order whose refusal does not prove it was never placed: re-placed after an unknown
 * outcome (an earlier attempt may yet be in the book), or left unresolved from an earlier
 * day or at a stop.
 */
function uncertain(order: TrackedOrder): boolean {
  return (
    order.replacements > 0 ||
    order.status === 'unresolved' ||
    order.notPlacedAtStop !== undefined ||
    (order.previousTags?.length ?? 0) > 0
  );
}
