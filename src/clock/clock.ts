import type { SchedulerLike } from 'rxjs';

/**
 * The one source of time for everything in tiqs-runner.
 *
 * Live mode uses {@link LiveClock}; tests and backtests use {@link VirtualClock}, which
 * only moves when told to. Code that needs a timer schedules it on `scheduler` (for
 * example `timer(ms, clock.scheduler)`), never on `setTimeout`.
 *
 * @example
 * ```ts
 * const clock = new VirtualClock(Date.parse('2026-11-20T03:45:00Z'));
 * timer(1_000, clock.scheduler).subscribe(() => console.log(clock.now()));
 * clock.advanceBy(1_000);
 * ```
 */
export interface Clock {
  /** Current instant, Unix epoch milliseconds. */
  now(): number;
  /** RxJS scheduler whose delays run on this clock's time. */
  readonly scheduler: SchedulerLike;
}
