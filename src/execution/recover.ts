import type { Logger } from 'pino';
import type { Clock } from '../clock/clock.ts';
import { sleep } from '../clock/sleep.ts';
import { bookJournalFills } from './fill-day.ts';
import type { Journal } from './journal.ts';
import type { KillSwitch } from './kill-switch.ts';
import type { OrderTracker } from './order-tracker.ts';
import type { Placements } from './placement.ts';
import type { PositionBook } from './position-book.ts';

/** What {@link recoverFromJournal} rebuilds and whom it tells. */
export interface RecoverDeps {
  clock: Clock;
  logger: Logger;
  journal: Journal;
  tracker: OrderTracker;
  positions: PositionBook;
  placements: Placements;
  killSwitch: KillSwitch;
  /** How long to wait for the broker's books before reconciling in the background. */
  waitMs: number;
  /** Marks the engine unreconciled: only cancels go out until the books are read. */
  hold: () => void;
  /** Still unreconciled (the first read of the books has not succeeded). */
  unreconciled: () => boolean;
}

/**
 * Crash-only start: reloads the journal, rebuilds orders, positions, the placement
 * counts and the kill switch from it, and waits a few seconds at most for a first
 * read of the broker's books; reconciliation goes on in the background after that.
 */
export async function recoverFromJournal(
  deps: RecoverDeps,
): Promise<{ orders: number; fills: number }> {
  const { journal, tracker, logger } = deps;
  const { orders, fills } = journal.load();
  const now = deps.clock.now();
  for (const order of orders) {
    if (order.status === 'submitting') {
      order.status = 'unknown';
      order.unknownSince = now;
    }
    // "A cancel was sent" guards against sending it twice in this process; whether the
    // order is still open is the books' to say, so a restart may cancel it again.
    delete order.cancelRequested;
    if (order.status !== 'replaced') tracker.track(order);
  }
  deps.placements.restore(orders);
  // Intraday positions a day left open are closed as the book replays into later days.
  bookJournalFills(deps.positions, { orders, fills });
  deps.killSwitch.load();
  if (orders.length > 0) {
    logger.info(
      { orders: orders.length, fills: fills.length },
      'journal reloaded; reconciling with the broker',
    );
    // Until the books are read, what happened while down is unknown: only cancels go
    // out (see handle). Start-up waits a few seconds at most, so that a silent service
    // is reported at once and the strategies, quotes and tracking run meanwhile.
    deps.hold();
    const { waitMs } = deps;
    const timer = new AbortController();
    const done = await Promise.race([
      tracker.poll().then(() => true),
      sleep(deps.clock, waitMs, timer.signal).then(
        () => false,
        () => false,
      ),
    ]);
    timer.abort();
    if (deps.unreconciled()) {
      logger.warn(
        { orders: orders.length, waitedMs: done ? undefined : waitMs },
        done
          ? "the broker's books could not be read at start: reconciliation goes on in the " +
              'background (the order tracker polls until it succeeds); until then only ' +
              'cancels go out, other intents wait'
          : `the broker has not answered within ${waitMs / 1_000} s at start: reconciliation ` +
              'goes on in the background (the order tracker polls until it succeeds); until ' +
              'then only cancels go out, other intents wait',
      );
    }
  }
  return { orders: orders.length, fills: fills.length };
}
