import { BehaviorSubject, filter, type Observable } from 'rxjs';
import { type Holidays, holidaysSchema } from '../api/schemas/utilities.ts';
import type { Clock } from '../clock/clock.ts';
import { istParts } from '../domain/ist.ts';
import { NoCalendarError } from './calendar-errors.ts';
import { CalendarFile } from './calendar-file.ts';
import { isSourceKey } from './calendar-file-name.ts';
import { CalendarRetry } from './calendar-retry.ts';
import type { CalendarStatus, CalendarStoreOptions } from './calendar-store-options.ts';
import { errorMessage } from './error-message.ts';
import { mergeHolidays } from './merge-holidays.ts';
import { RefreshSchedule } from './refresh-schedule.ts';
import { TradingCalendar } from './trading-calendar.ts';

/**
 * How far ahead of this clock a stored copy's fetch time may be and still count as
 * current: a restarted simulator's market time starts again a little before the last
 * run's fetch; a copy weeks ahead (a fast simulator left running) counts as stale.
 */
const FUTURE_SLACK_MS = 60_000;

export type {
  CalendarStatus,
  CalendarStoreLogger,
  CalendarStoreOptions,
} from './calendar-store-options.ts';

/**
 * Keeps the trading calendar current: loads the last good copy from disk, fetches from the
 * service, merges years (the service returns the current year only, the file keeps the
 * previous ones), saves atomically, and refetches daily and at the IST year change on the
 * Clock's scheduler, retrying failures.
 *
 * With no calendar at all, or none for the current year, {@link CalendarStore.require}
 * throws a {@link NoCalendarError} whose message says why: execution must not trade then.
 *
 * @example
 * ```ts
 * const store = new CalendarStore({ clock, fetchHolidays, path: 'var/holidays.json' });
 * await store.start();
 * const calendar = store.require(); // or subscribe to store.calendar$
 * ```
 */
export class CalendarStore {
  private readonly clock: Clock;
  private readonly networkClock: Clock;
  private readonly options: CalendarStoreOptions;
  private readonly startupWaitMs: number;
  private readonly fetchTimeoutMs: number;
  private readonly serviceName: string;
  private readonly schedule: RefreshSchedule;
  private readonly retry: CalendarRetry;
  private readonly file: CalendarFile;
  private readonly current$ = new BehaviorSubject<TradingCalendar | undefined>(undefined);
  private data: Holidays | undefined;
  private source: 'service' | 'disk' = 'disk';
  /** The service the stored copy came from, as it was saved (see `sourceId`). */
  private storedFrom: string | undefined;
  /** Why a stored copy was not used: another service stored it. */
  private storedElsewhere: string | undefined;
  private fetchedAt = 0;
  private lastError: string | undefined;
  private inFlight: Promise<CalendarStatus> | undefined;

  /** Each new calendar, starting with the current one if any. */
  readonly calendar$: Observable<TradingCalendar>;

  constructor(options: CalendarStoreOptions) {
    this.options = options;
    this.clock = options.clock;
    this.networkClock = options.networkClock ?? options.clock;
    this.schedule = new RefreshSchedule(this.clock, options.refreshAt);
    this.retry = new CalendarRetry(
      this.networkClock,
      options.retryDelayMs,
      options.maxRetryDelayMs,
    );
    this.file = new CalendarFile(options.path, options.logger);
    this.startupWaitMs = options.startupWaitMs ?? 5_000;
    this.fetchTimeoutMs = options.fetchTimeoutMs ?? 30_000;
    this.serviceName = options.serviceName ?? 'the service';
    this.calendar$ = this.current$.pipe(filter((c): c is TradingCalendar => c !== undefined));
  }

  /** The current calendar, or undefined when there is none. */
  get calendar(): TradingCalendar | undefined {
    return this.current$.value;
  }

  /**
   * Loads the stored copy, fetches a fresh one unless the stored copy is current (see
   * {@link CalendarStoreOptions.fetchAtStart}), and starts the refresh timers. Resolves
   * once the service has answered, or after {@link CalendarStoreOptions.startupWaitMs}
   * at the latest: an unresponsive service is logged as an error and retried in the
   * background with backoff, and {@link CalendarStore.calendar$} emits when it answers.
   */
  async start(): Promise<CalendarStatus> {
    const since = this.networkClock.now();
    if (this.calendar === undefined) await this.loadStored();
    this.schedule.start(() => void this.refresh());
    if (this.storedIsCurrent()) {
      this.options.logger?.info(
        { fetchedAt: new Date(this.fetchedAt).toISOString() },
        'stored calendar is current (fetched since the last scheduled refetch): no fetch at start',
      );
      return this.status();
    }
    const waitMs = Math.max(0, since + this.startupWaitMs - this.networkClock.now());
    const answered = await this.retry.within(this.refresh(), waitMs);
    if (answered !== undefined) return answered;
    const status = this.status();
    const next = 'retrying in the background with backoff';
    if (status.state === 'unavailable') {
      this.options.logger?.error(
        { service: this.serviceName, waitedMs: this.startupWaitMs },
        `holidays: ${this.serviceName} has not answered within ${this.startupWaitMs} ms; starting without a trading calendar (no order is sent until it loads) and ${next}`,
      );
    } else {
      this.options.logger?.warn(
        { service: this.serviceName, waitedMs: this.startupWaitMs, years: status.years },
        `holidays: ${this.serviceName} has not answered within ${this.startupWaitMs} ms; using the stored calendar and ${next}`,
      );
    }
    return status;
  }

  /** Stops the timers. An in-flight fetch still completes. */
  stop(): void {
    this.schedule.stop();
    this.retry.stop();
  }

  /** Fetches now (joining a fetch already under way); on failure keeps the last good copy. */
  refresh(): Promise<CalendarStatus> {
    this.inFlight ??= this.doRefresh().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Resolves when no fetch is under way. */
  async settled(): Promise<void> {
    await this.inFlight;
  }

  /** What the store has now. */
  status(): CalendarStatus {
    const calendar = this.calendar;
    if (calendar === undefined) return { state: 'unavailable', reason: this.noDataReason() };
    return {
      state: 'ready',
      source: this.source,
      years: calendar.years,
      fetchedAt: this.fetchedAt,
      ...(this.lastError === undefined ? {} : { lastError: this.lastError }),
    };
  }

  /**
   * The calendar, if it covers the IST year of `at` (default: now); otherwise throws
   * {@link NoCalendarError} with the reason in words.
   */
  require(at: number = this.clock.now()): TradingCalendar {
    const calendar = this.calendar;
    if (calendar === undefined) throw new NoCalendarError('no-data', this.noDataReason());
    if (!calendar.covers(at)) {
      const year = istParts(at).year;
      const have = calendar.years.length === 0 ? 'none' : calendar.years.join(', ');
      const why =
        this.lastError === undefined ? 'not fetched yet' : `last fetch failed: ${this.lastError}`;
      throw new NoCalendarError(
        'not-covered',
        `no calendar for ${year}: holiday data covers ${have}; ${why}`,
      );
    }
    return calendar;
  }

  /**
   * A stored copy from this service, fetched since the latest scheduled refetch and not
   * ahead of this clock (by more than {@link FUTURE_SLACK_MS}), covering today.
   */
  private storedIsCurrent(): boolean {
    if ((this.options.fetchAtStart ?? 'when-stale') === 'always') return false;
    const now = this.clock.now();
    return (
      this.calendar?.covers(now) === true &&
      this.source === 'disk' &&
      this.storedFrom === this.options.sourceId &&
      this.fetchedAt >= this.schedule.lastAt(now) &&
      this.fetchedAt <= now + FUTURE_SLACK_MS
    );
  }

  private noDataReason(): string {
    const service =
      this.lastError === undefined
        ? 'service not asked yet'
        : `service unreachable (${this.lastError})`;
    const disk = this.file.problem ?? this.storedElsewhere ?? `no stored copy at ${this.file.path}`;
    return `no calendar: ${service} and ${disk}`;
  }

  private loadStored(): Promise<void> {
    return this.file.load((data, fetchedAt, from) => {
      // A copy another service stored says nothing about this one's sessions: not even a
      // fallback. The bot keeps one file per service (calendar-file-name.ts); this guards
      // a file copied or named by hand. Copies that record no service are used as before.
      if (from !== undefined && from !== this.options.sourceId) {
        // Files of 24 November 2026 recorded the base URL itself: named only if a key.
        const named = isSourceKey(from) ? from : 'not shown';
        this.storedElsewhere = `the stored copy at ${this.file.path} came from another service (${named})`;
        this.options.logger?.warn(
          { path: this.file.path, storedFrom: named },
          'stored calendar came from another service: not used (the next fetch replaces it)',
        );
        return;
      }
      this.install(data, 'disk', fetchedAt);
      this.storedFrom = from;
      this.options.logger?.info(
        { path: this.file.path, years: this.calendar?.years },
        'calendar loaded from disk',
      );
    });
  }

  /** One fetch, abandoned (and its signal aborted) after `fetchTimeoutMs`. */
  private async fetchOnce(): Promise<Holidays> {
    const abort = new AbortController();
    const answer = this.options.fetchHolidays(abort.signal);
    const data = await this.retry.within(answer, this.fetchTimeoutMs);
    if (data === undefined) {
      abort.abort();
      // The abandoned fetch may still settle; nobody is waiting for it any more.
      answer.catch(() => undefined);
      throw new Error(`${this.serviceName} did not answer within ${this.fetchTimeoutMs} ms`);
    }
    return data;
  }

  private async doRefresh(): Promise<CalendarStatus> {
    let fresh: Holidays;
    try {
      fresh = holidaysSchema.parse(await this.fetchOnce());
      // Years another service stored (a simulator's, in a state folder a live bot shares)
      // are not kept beside this one's.
      const merged =
        this.data !== undefined && this.storedFrom === this.options.sourceId
          ? mergeHolidays(this.data, fresh)
          : fresh;
      this.install(merged, 'service', this.clock.now());
      this.storedFrom = this.options.sourceId;
    } catch (err) {
      this.lastError = errorMessage(err);
      const retryInMs = this.armRetry();
      this.options.logger?.warn(
        { err: this.lastError, service: this.serviceName, retryInMs },
        'calendar fetch failed; keeping last good copy',
      );
      return this.status();
    }
    this.lastError = undefined;
    try {
      await this.file.save(this.data, this.fetchedAt, this.options.sourceId);
    } catch (err) {
      this.lastError = `could not save ${this.file.path}: ${errorMessage(err)}`;
      this.options.logger?.warn({ err: this.lastError }, 'calendar not saved');
    }
    // At the year change the service may still serve last year's list for a while.
    if (this.calendar?.covers(this.clock.now()) === false) {
      this.lastError = `service returned no data for the current year (has ${this.calendar.years.join(', ')})`;
      this.armRetry();
    } else {
      this.retry.succeeded();
    }
    this.options.logger?.info({ years: this.calendar?.years }, 'calendar refreshed');
    return this.status();
  }

  private install(data: Holidays, source: 'service' | 'disk', fetchedAt: number): void {
    const calendar = TradingCalendar.fromHolidays(data, {
      outsideCoverage: 'closed',
      ...this.options.calendarOptions,
    });
    this.data = data;
    this.source = source;
    this.fetchedAt = fetchedAt;
    this.current$.next(calendar);
  }

  /**
   * Schedules the next try with backoff; returns its delay. Only while the store runs: a
   * refresh before `start` or after `stop` leaves no timer behind.
   */
  private armRetry(): number | undefined {
    if (!this.schedule.running) return undefined;
    return this.retry.arm(() => void this.refresh());
  }
}
