import type { Holidays } from '../api/schemas/utilities.ts';
import type { Clock } from '../clock/clock.ts';
import type { CalendarOptions } from './trading-calendar.ts';

/** Minimal logger; pino's fits. */
export interface CalendarStoreLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/**
 * Options of {@link CalendarStore}.
 *
 * @example
 * ```ts
 * const store = new CalendarStore({
 *   clock,
 *   fetchHolidays: () => client.holidays(),
 *   path: 'var/holidays.json',
 * });
 * ```
 */
export interface CalendarStoreOptions {
  /** Market time: dates, and the daily refetch. */
  readonly clock: Clock;
  /**
   * Time of the network: the start-up wait, the fetch time-out and the retry backoff are
   * about the service's responsiveness, not market time (which may run faster in a
   * rehearsal). Default: `clock`.
   */
  readonly networkClock?: Clock;
  /**
   * The holidays operation; the service returns the current year only. `signal` aborts
   * when the store gives up on an answer ({@link CalendarStoreOptions.fetchTimeoutMs}).
   */
  readonly fetchHolidays: (signal?: AbortSignal) => Promise<Holidays>;
  /** Names the service in log lines, e.g. its base URL. Default `the service`. */
  readonly serviceName?: string;
  /**
   * Which service the holidays come from, kept with the stored copy (the bot passes the
   * instrument master's cache key: `embedded` for the simulator, whose port changes from
   * run to run, else a digest of the base URL, and names the file after it,
   * `calendar-file-name.ts`): a copy another one stored is not loaded at all, neither
   * current (see {@link fetchAtStart}) nor the fallback while this service does not
   * answer. A copy that records no service (older files) is only a fallback: never
   * current for a store with a `sourceId`. Without one, copies record none and are the
   * store's own.
   */
  readonly sourceId?: string;
  /** JSON file holding the last good (merged) copy. */
  readonly path: string;
  /** Calendar options; `outsideCoverage` defaults to `closed` here, unlike the bare calendar. */
  readonly calendarOptions?: Omit<CalendarOptions, 'years'>;
  /** IST times of the daily refetch. Default `['00:01', '08:00']`: just after the (year) change of date, and before pre-open. */
  readonly refreshAt?: readonly string[];
  /** First wait before retrying a failed or stale fetch; doubles on each failure. Default 5 s. */
  readonly retryDelayMs?: number;
  /** Cap of the doubling retry wait. Default 5 minutes. */
  readonly maxRetryDelayMs?: number;
  /**
   * How long {@link CalendarStore.start} waits for the service before start-up goes on
   * without it (the fetch keeps going in the background). Default 5 s.
   */
  readonly startupWaitMs?: number;
  /**
   * Whether {@link CalendarStore.start} fetches when the stored copy is current, i.e. came
   * from this {@link sourceId}, was fetched at or after the latest daily refetch time
   * ({@link refreshAt}) and not more than a minute after now (a copy from a clock ahead of
   * this one, a fast simulator's, proves nothing), and covers today: `when-stale`
   * (default) starts on such a copy at once and leaves the next fetch to the schedule, as
   * a store that had kept running would; `always` fetches at every start (and waits up to
   * {@link startupWaitMs}).
   */
  readonly fetchAtStart?: 'when-stale' | 'always';
  /** A fetch not answered within this is abandoned and counts as failed. Default 30 s. */
  readonly fetchTimeoutMs?: number;
  readonly logger?: CalendarStoreLogger;
}

/**
 * Whether the store has a calendar, where from, and the last problem.
 *
 * @example
 * ```ts
 * const s = store.status();
 * if (s.state === 'unavailable') log.error(s.reason);
 * ```
 */
export type CalendarStatus =
  | {
      readonly state: 'ready';
      /** `service`: fetched by this process; `disk`: the stored copy, service not (yet) reached. */
      readonly source: 'service' | 'disk';
      readonly years: readonly number[];
      /** When this copy was fetched from the service, epoch ms. */
      readonly fetchedAt: number;
      /** The last failed fetch or save since then, if any. */
      readonly lastError?: string;
    }
  | { readonly state: 'unavailable'; readonly reason: string };
