import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { Clock } from './clock.ts';

/** Wall-clock time: `Date.now()` and RxJS's `asyncScheduler`. */
export class LiveClock implements Clock {
  readonly scheduler: SchedulerLike = asyncScheduler;

  now(): number {
    return Date.now();
  }
}
