import { Observable, type SchedulerAction, type Subscription } from 'rxjs';
import type { Clock } from '../clock/clock.ts';
import { DAY_MS, istDayStart } from '../domain/ist.ts';
import type { MarketSessions } from '../domain/market-sessions.ts';

/** What {@link sessionTicks$} follows. */
export interface SessionTicksOptions {
  clock: Clock;
  /** Tick period, ms of market time; ticks sit on a grid of it from the subscription. */
  periodMs: number;
  /** The sessions now; undefined while there is none (no calendar): then it ticks always. */
  sessions(): MarketSessions | undefined;
  /** Emits when the sessions change (a new calendar): a sleep is planned again. */
  changed$?: Observable<unknown>;
}

/**
 * Longest single wait: a live process re-reads the clock at least this often (after a
 * machine sleep, say), as the calendar's schedules do.
 */
const MAX_WAIT_MS = 3_600_000;

/**
 * A periodic tick of market time, like `interval(periodMs)`, but only while it can see
 * something new: on every point of its grid (`start + k × periodMs`) while a session is
 * open, on the first point after each close, and on the first point after each IST
 * midnight (a day's first look, as the kill switch takes its daily baseline then). Prices
 * do not move while the market is closed, so the ticks it skips through nights, weekends
 * and holidays would each have seen what the last one did; in a backtest they were
 * three quarters of the replay's steps. Emits the instant of each tick.
 *
 * Each tick re-arms its own timer after emitting, as `interval` does, so ticks keep
 * their place among other timers due at the same instant. A wait longer than an hour is
 * cut into hours (a wake-up that re-plans and emits nothing).
 *
 * @example
 * ```ts
 * sessionTicks$({ clock, periodMs: 5_000, sessions: () => store.calendar }).subscribe(mark);
 * ```
 */
export function sessionTicks$(options: SessionTicksOptions): Observable<number> {
  const { clock, periodMs } = options;
  return new Observable<number>((subscriber) => {
    const origin = clock.now();
    /** The next grid point strictly after `at`. */
    const gridAfter = (at: number): number =>
      origin + (Math.floor((at - origin) / periodMs) + 1) * periodMs;
    /** The first grid point at or after `at`. */
    const gridFrom = (at: number): number => gridAfter(at - 1);
    /** End of the session known to be open (ticks before it need not ask the calendar). */
    let closeAt: number | undefined;
    /** The next tick after `from` (the last tick, or the start): its instant, or a wake-up. */
    const plan = (from: number, wasOpen: boolean): { at: number; tick: boolean } | undefined => {
      const next = gridAfter(from);
      if (closeAt !== undefined && next < closeAt) return { at: next, tick: true };
      closeAt = undefined;
      const sessions = options.sessions();
      if (sessions === undefined) return { at: next, tick: true };
      if (sessions.isOpen(next)) {
        closeAt = sessions.nextClose(next);
        return { at: next, tick: true };
      }
      if (wasOpen) return { at: next, tick: true };
      const open = sessions.nextOpen(from);
      const midnight = gridFrom(istDayStart(from) + DAY_MS);
      const at = open === undefined ? midnight : Math.min(gridFrom(open), midnight);
      const now = clock.now();
      return at - now > MAX_WAIT_MS ? { at: now + MAX_WAIT_MS, tick: false } : { at, tick: true };
    };
    const isOpen = (at: number): boolean =>
      closeAt !== undefined ? at < closeAt : (options.sessions()?.isOpen(at) ?? true);
    let pending: { at: number; tick: boolean } | undefined;
    const work = function (this: SchedulerAction<unknown>): void {
      const due = pending;
      if (subscriber.closed || due === undefined) return;
      const now = clock.now();
      if (due.tick) subscriber.next(due.at);
      if (subscriber.closed) return;
      pending = plan(Math.max(now, due.at), due.tick && isOpen(now));
      // Re-armed after emitting, as `interval` does: the same place among equal timers.
      if (pending !== undefined) this.schedule(undefined, Math.max(0, pending.at - now));
    };
    let timer: Subscription | undefined;
    const arm = (next: { at: number; tick: boolean } | undefined): void => {
      timer?.unsubscribe();
      pending = next;
      if (next !== undefined)
        timer = clock.scheduler.schedule(work, Math.max(0, next.at - clock.now()));
    };
    arm(plan(origin, isOpen(origin)));
    // A new calendar may open a session earlier than the one slept for (a special
    // session); a tick due within one period stays as planned (and keeps its place).
    const changes = options.changed$?.subscribe(() => {
      closeAt = undefined;
      const now = clock.now();
      if (pending?.tick && pending.at <= gridAfter(now)) return;
      const again = plan(now, isOpen(now));
      if (pending !== undefined && again?.at === pending.at && again.tick === pending.tick) return;
      arm(again);
    });
    return () => {
      changes?.unsubscribe();
      timer?.unsubscribe();
    };
  });
}
