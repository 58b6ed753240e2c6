import { defer, isObservable, Observable, of, type Subscription, switchMap } from 'rxjs';
import type { Clock } from '../clock/clock.ts';
import { istDayNumber, istDayStartOf } from '../domain/ist.ts';
import type { Exchange } from '../domain/order-params.ts';
import { parseTimeOfDay } from './session-config.ts';
import type { Session, TradingCalendar } from './trading-calendar.ts';

/**
 * One firing of a calendar schedule.
 *
 * @example
 * ```ts
 * atSessionOpen$(calendar, clock).subscribe(({ at, session }) => {
 *   log.info({ at, kind: session?.kind }, 'session open');
 * });
 * ```
 */
export interface CalendarTick {
  /** Instant the tick is for, epoch ms; normally the clock's time when it fires. */
  readonly at: number;
  /** The session the tick belongs to; for `atTimeIst$`, the session open at `at`, if any. */
  readonly session: Session | undefined;
  readonly exchange: Exchange;
}

/**
 * A fixed calendar, or a stream of them such as `CalendarStore.calendar$`. With a stream,
 * schedules follow each new calendar without firing an instant twice.
 */
export type CalendarSource = TradingCalendar | Observable<TradingCalendar>;

interface Plan {
  readonly at: number;
  readonly session: Session | undefined;
  /** Where the search for the following tick starts, so no tick fires twice. */
  readonly resume: number;
}

type Planner = (calendar: TradingCalendar, from: number) => Plan | undefined;

/**
 * Longest single timer. Long waits are split so that a live process re-reads the clock
 * after a machine sleep, and so that no delay nears setTimeout's 2^31 ms limit.
 */
const MAX_WAIT_MS = 3_600_000;
const SEARCH_DAYS = 400;

function calendarTimer$(
  source: CalendarSource,
  clock: Clock,
  exchange: Exchange,
  planner: Planner,
): Observable<CalendarTick> {
  const calendars$ = isObservable(source) ? source : of(source);
  return defer(() => {
    // Shared across calendar switches: a new calendar resumes after the last tick.
    const state = { from: clock.now() };
    return calendars$.pipe(
      switchMap(
        (calendar) =>
          new Observable<CalendarTick>((subscriber) => {
            let timer: Subscription | undefined;
            const arm = (): void => {
              const now = clock.now();
              const plan = planner(calendar, Math.max(now, state.from));
              if (plan === undefined) return;
              const wait = plan.at - now;
              if (wait > MAX_WAIT_MS) {
                timer = clock.scheduler.schedule(arm, MAX_WAIT_MS);
                return;
              }
              timer = clock.scheduler.schedule(
                () => {
                  if (clock.now() < plan.at) return arm();
                  state.from = plan.resume;
                  subscriber.next({ at: plan.at, session: plan.session, exchange });
                  if (!subscriber.closed) arm();
                },
                Math.max(0, wait),
              );
            };
            arm();
            return () => timer?.unsubscribe();
          }),
      ),
    );
  });
}

/**
 * Fires at the start of every session, regular and special (two sessions in a day: two
 * ticks). Subscribing exactly at an open fires for it.
 *
 * @example
 * ```ts
 * atSessionOpen$(store.calendar$, clock, 'NFO').subscribe(() => strategy.onOpen());
 * ```
 */
export function atSessionOpen$(
  calendar: CalendarSource,
  clock: Clock,
  exchange: Exchange = 'NSE',
): Observable<CalendarTick> {
  return calendarTimer$(calendar, clock, exchange, (cal, from) => {
    for (const s of cal.upcomingSessions(from, exchange)) {
      if (s.start >= from) return { at: s.start, session: s, resume: s.start + 1 };
    }
    return undefined;
  });
}

/**
 * Fires `minutes` before the end of every session, regular and special: Muhurat 18:00–19:00
 * with 15 minutes fires at 18:45. A session shorter than `minutes` fires at its start.
 * Subscribing inside the window of an open session fires at once, since the point is to
 * square off before the close and a late start must not skip it.
 *
 * @example
 * ```ts
 * beforeClose$(calendar, clock, 15).subscribe(() => execution.squareOffIntraday());
 * ```
 */
export function beforeClose$(
  calendar: CalendarSource,
  clock: Clock,
  minutes: number,
  exchange: Exchange = 'NSE',
): Observable<CalendarTick> {
  if (!(minutes > 0)) throw new RangeError(`beforeClose$: minutes must be > 0, got ${minutes}`);
  const lead = minutes * 60_000;
  return calendarTimer$(calendar, clock, exchange, (cal, from) => {
    for (const s of cal.upcomingSessions(from, exchange)) {
      const at = Math.max(s.start, s.end - lead, from);
      if (at < s.end) return { at, session: s, resume: s.end };
    }
    return undefined;
  });
}

/**
 * Fires at `HH:MM` IST on every trading day (a day with at least one session, including
 * Muhurat holidays and weekend special days), whether or not the market is open then.
 *
 * @example
 * ```ts
 * atTimeIst$(calendar, clock, '08:45').subscribe(() => strategy.prepareDay());
 * ```
 */
export function atTimeIst$(
  calendar: CalendarSource,
  clock: Clock,
  time: string,
  exchange: Exchange = 'NSE',
): Observable<CalendarTick> {
  const offsetMs = parseTimeOfDay(time, 'atTimeIst$') * 60_000;
  return calendarTimer$(calendar, clock, exchange, (cal, from) => {
    const first = istDayNumber(from);
    for (let d = first; d < first + SEARCH_DAYS; d++) {
      const at = istDayStartOf(d) + offsetMs;
      if (at >= from && cal.isTradingDay(at, exchange)) {
        return { at, session: cal.sessionAt(at, exchange), resume: at + 1 };
      }
    }
    return undefined;
  });
}

/**
 * Fires every `seconds` while a session is open, aligned to the session's start (09:15:00,
 * 09:15:30, …) so that restarts tick at the same instants; never at or after the close.
 *
 * @example
 * ```ts
 * everyWhileOpen$(calendar, clock, 30).subscribe(() => strategy.rebalance());
 * ```
 */
export function everyWhileOpen$(
  calendar: CalendarSource,
  clock: Clock,
  seconds: number,
  exchange: Exchange = 'NSE',
): Observable<CalendarTick> {
  if (!(seconds > 0)) throw new RangeError(`everyWhileOpen$: seconds must be > 0, got ${seconds}`);
  const period = seconds * 1_000;
  return calendarTimer$(calendar, clock, exchange, (cal, from) => {
    for (const s of cal.upcomingSessions(from, exchange)) {
      const k = Math.max(0, Math.ceil((from - s.start) / period));
      const at = s.start + k * period;
      if (at < s.end) return { at, session: s, resume: at + 1 };
    }
    return undefined;
  });
}
