import { type SchedulerAction, type SchedulerLike, Subscription } from 'rxjs';
import type { Clock } from './clock.ts';

class ScaledAction<T> extends Subscription implements SchedulerAction<T> {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private rescheduled = false;

  constructor(
    private readonly speed: number,
    private readonly work: (this: SchedulerAction<T>, state?: T) => void,
    public state: T | undefined,
  ) {
    super(() => {
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
    });
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    this.state = state;
    this.rescheduled = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), Math.max(0, delay) / this.speed);
    return this;
  }

  private run(): void {
    this.timer = undefined;
    this.rescheduled = false;
    this.work.call(this, this.state);
    // Like RxJS's own actions: one that did not schedule itself again is finished.
    if (!this.rescheduled) this.unsubscribe();
  }
}

/**
 * Wall-clock time that starts at a chosen instant and runs `speed` times faster (for
 * demos: `tiqs-runner sim --always-open --start 2026-01-05T09:15+05:30 --speed 60`).
 * Timers on its scheduler fire after the scaled delay.
 *
 * Market time is `start + (realNow() - anchor) * speed`. The anchor defaults to the
 * instant of construction; giving the same start, speed and anchor to two processes (a
 * bot and an external simulator) makes them agree on market time.
 *
 * @example
 * ```ts
 * const clock = new ScaledClock(Date.parse('2026-01-05T03:45:00Z'), 60);
 * // one real second later, clock.now() is one minute past the start
 * const shared = new ScaledClock(start, 60, Date.now, Date.parse('2026-11-23T18:00:00Z'));
 * // market time is start + (wall - anchor) * 60, in every process built this way
 * ```
 */
export class ScaledClock implements Clock, SchedulerLike {
  readonly scheduler: SchedulerLike = this;
  private readonly realStart: number;

  constructor(
    private readonly start: number,
    private readonly speed = 1,
    private readonly realNow: () => number = Date.now,
    anchor?: number,
  ) {
    if (!(speed > 0) || !Number.isFinite(speed)) throw new RangeError(`bad speed: ${speed}`);
    if (anchor !== undefined && !Number.isFinite(anchor)) {
      throw new RangeError(`bad anchor: ${anchor}`);
    }
    this.realStart = anchor ?? realNow();
  }

  now(): number {
    return Math.floor(this.start + (this.realNow() - this.realStart) * this.speed);
  }

  schedule<T>(
    work: (this: SchedulerAction<T>, state?: T) => void,
    delay = 0,
    state?: T,
  ): Subscription {
    return new ScaledAction<T>(this.speed, work, state).schedule(state, delay);
  }
}
