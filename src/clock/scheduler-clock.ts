import type { SchedulerLike } from 'rxjs';
import type { Clock } from './clock.ts';

/**
 * A Clock over any RxJS scheduler, typically the `TestScheduler` of a marble test, whose
 * frame 0 is taken to be the epoch instant `epochAtZero`.
 *
 * @example
 * ```ts
 * testScheduler.run(() => {
 *   const clock = schedulerClock(testScheduler, Date.parse('2026-11-20T03:45:00Z'));
 * });
 * ```
 */
export function schedulerClock(scheduler: SchedulerLike, epochAtZero: number): Clock {
  return { scheduler, now: () => epochAtZero + scheduler.now() };
}
