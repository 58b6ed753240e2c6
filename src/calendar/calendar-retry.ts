import type { Subscription } from 'rxjs';
import type { Clock } from '../clock/clock.ts';

/**
 * Waiting on the holiday service in network time: bounds a wait (the start-up wait, the
 * fetch time-out) and schedules background retries of failed or stale fetches, doubling
 * the delay on each failure in a row up to a cap.
 *
 * @example
 * ```ts
 * const retry = new CalendarRetry(networkClock, 5_000, 300_000);
 * const answer = await retry.within(fetch(), 30_000); // undefined on time-out
 * if (answer === undefined) retry.arm(() => void refresh());
 * ```
 */
export class CalendarRetry {
  private readonly firstDelayMs: number;
  private readonly maxDelayMs: number;
  /** Failed or stale fetches in a row: the exponent of the backoff. */
  private failures = 0;
  private timer: Subscription | undefined;

  constructor(
    private readonly clock: Clock,
    firstDelayMs = 5_000,
    maxDelayMs = 300_000,
  ) {
    this.firstDelayMs = firstDelayMs;
    this.maxDelayMs = Math.max(firstDelayMs, maxDelayMs);
  }

  /** `work`'s result, or undefined if it takes longer than `ms` of network time. */
  within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
    return new Promise<T | undefined>((resolve, reject) => {
      const timer = this.clock.scheduler.schedule(() => resolve(undefined), ms);
      work.then(
        (value) => {
          timer.unsubscribe();
          resolve(value);
        },
        (err: unknown) => {
          timer.unsubscribe();
          reject(err);
        },
      );
    });
  }

  /**
   * Schedules `retry` after the backoff delay, unless a retry is already pending; returns
   * the delay, or undefined when none was scheduled.
   */
  arm(retry: () => void): number | undefined {
    if (this.timer !== undefined) return undefined;
    const delay = Math.min(this.maxDelayMs, this.firstDelayMs * 2 ** Math.min(this.failures, 30));
    this.failures++;
    this.timer = this.clock.scheduler.schedule(() => {
      this.timer = undefined;
      retry();
    }, delay);
    return delay;
  }

  /** A good fetch: the backoff starts over and a pending retry is dropped. */
  succeeded(): void {
    this.failures = 0;
    this.stop();
  }

  /** Drops a pending retry; the failure count stays. */
  stop(): void {
    this.timer?.unsubscribe();
    this.timer = undefined;
  }
}
