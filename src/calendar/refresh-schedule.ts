import type { Subscription } from 'rxjs';
import type { Clock } from '../clock/clock.ts';
import { DAY_MS, IST_OFFSET_MS, istDayNumber } from '../domain/ist.ts';
import { parseTimeOfDay } from './session-config.ts';

/** Timers wake at least hourly and re-check the clock, so a jump in market time is noticed. */
const MAX_WAIT_MS = 3_600_000;

/**
 * The daily refetch times of the holiday data, in market time: at given IST times of day
 * (by default just after the change of date, which covers the year change, and before
 * pre-open).
 *
 * @example
 * ```ts
 * const schedule = new RefreshSchedule(clock, ['00:01', '08:00']);
 * schedule.start(() => void store.refresh());
 * ```
 */
export class RefreshSchedule {
  /** Minutes after IST midnight, ascending. */
  private readonly minutes: readonly number[];
  private timer: Subscription | undefined;

  /** Throws when a time in `refreshAt` is not `HH:MM`. */
  constructor(
    private readonly clock: Clock,
    refreshAt: readonly string[] = ['00:01', '08:00'],
  ) {
    this.minutes = refreshAt.map((t) => parseTimeOfDay(t, 'refreshAt')).sort((a, b) => a - b);
  }

  /** Whether the schedule is running (started and not stopped). */
  get running(): boolean {
    return this.timer !== undefined;
  }

  /** Calls `due` at each refresh time from now on; no-op when already running. */
  start(due: () => void): void {
    if (this.timer === undefined) this.arm(due);
  }

  /** Stops the schedule. */
  stop(): void {
    this.timer?.unsubscribe();
    this.timer = undefined;
  }

  private arm(due: () => void): void {
    const now = this.clock.now();
    const next = this.nextAt(now);
    const wait = next - now;
    this.timer = this.clock.scheduler.schedule(
      () => {
        if (this.clock.now() >= next) due();
        this.arm(due);
      },
      Math.min(wait, MAX_WAIT_MS),
    );
  }

  /**
   * The latest refresh time at or before `now`: a copy fetched since then is as fresh as
   * a running store would keep it.
   */
  lastAt(now: number): number {
    const today = istDayNumber(now);
    for (let d = today; d >= today - 1; d--) {
      for (let i = this.minutes.length - 1; i >= 0; i--) {
        const at = d * DAY_MS - IST_OFFSET_MS + (this.minutes[i] ?? 0) * 60_000;
        if (at <= now) return at;
      }
    }
    return now - DAY_MS;
  }

  private nextAt(now: number): number {
    const today = istDayNumber(now);
    for (let d = today; d <= today + 1; d++) {
      for (const minute of this.minutes) {
        const at = d * DAY_MS - IST_OFFSET_MS + minute * 60_000;
        if (at > now) return at;
      }
    }
    return now + DAY_MS;
  }
}
