import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BehaviorSubject, filter, type Observable, type Subscription } from 'rxjs';
import { z } from 'zod';
import { type Holidays, holidaysSchema } from '../api/schemas/utilities.ts';
import type { Clock } from '../clock/clock.ts';
import { NoCalendarError } from './calendar-errors.ts';
import { istDayNumber, toIstIso } from './ist.ts';
import { mergeHolidays } from './merge-holidays.ts';
import { parseTimeOfDay } from './session-config.ts';
import { type CalendarOptions, TradingCalendar } from './trading-calendar.ts';

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

const storedFileSchema = z.object({
  format: z.literal('tiqs-runner/holidays@1'),
  fetchedAt: z.iso.datetime({ offset: true }),
  data: holidaysSchema,
});

const MAX_WAIT_MS = 3_600_000;
const DAY_MS = 86_400_000;
const IST_OFFSET_MS = 330 * 60_000;

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
  private readonly refreshMinutes: readonly number[];
  private readonly retryDelayMs: number;
  private readonly maxRetryDelayMs: number;
  private readonly startupWaitMs: number;
  private readonly fetchTimeoutMs: number;
  private readonly serviceName: string;
  /** Failed or stale fetches in a row: the exponent of the retry backoff. */
  private failures = 0;
  private readonly current$ = new BehaviorSubject<TradingCalendar | undefined>(undefined);
  private data: Holidays | undefined;
  private source: 'service' | 'disk' = 'disk';
  private fetchedAt = 0;
  private lastError: string | undefined;
  private diskProblem: string | undefined;
  private inFlight: Promise<CalendarStatus> | undefined;
  private dailyTimer: Subscription | undefined;
  private retryTimer: Subscription | undefined;
  private saveSeq = 0;

  /** Each new calendar, starting with the current one if any. */
  readonly calendar$: Observable<TradingCalendar>;

  constructor(options: CalendarStoreOptions) {
    this.options = options;
    this.clock = options.clock;
    this.networkClock = options.networkClock ?? options.clock;
    this.refreshMinutes = (options.refreshAt ?? ['00:01', '08:00'])
      .map((t) => parseTimeOfDay(t, 'refreshAt'))
      .sort((a, b) => a - b);
    this.retryDelayMs = options.retryDelayMs ?? 5_000;
    this.maxRetryDelayMs = Math.max(this.retryDelayMs, options.maxRetryDelayMs ?? 300_000);
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
   * Loads the stored copy, fetches a fresh one, and starts the refresh timers. Resolves
   * once the service has answered, or after {@link CalendarStoreOptions.startupWaitMs}
   * at the latest: an unresponsive service is logged as an error and retried in the
   * background with backoff, and {@link CalendarStore.calendar$} emits when it answers.
   */
  async start(): Promise<CalendarStatus> {
    const since = this.networkClock.now();
    if (this.calendar === undefined) await this.loadStored();
    if (this.dailyTimer === undefined) this.armDaily();
    const waitMs = Math.max(0, since + this.startupWaitMs - this.networkClock.now());
    const answered = await this.within(this.refresh(), waitMs);
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
    this.dailyTimer?.unsubscribe();
    this.retryTimer?.unsubscribe();
    this.dailyTimer = undefined;
    this.retryTimer = undefined;
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
      const year = new Date(at + IST_OFFSET_MS).getUTCFullYear();
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

  private noDataReason(): string {
    const service =
      this.lastError === undefined
        ? 'service not asked yet'
        : `service unreachable (${this.lastError})`;
    const disk = this.diskProblem ?? `no stored copy at ${this.options.path}`;
    return `no calendar: ${service} and ${disk}`;
  }

  private async loadStored(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.options.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.diskProblem = `stored copy at ${this.options.path} is unreadable (${message(err)})`;
      }
      return;
    }
    try {
      const stored = storedFileSchema.parse(JSON.parse(text));
      this.install(stored.data, 'disk', Date.parse(stored.fetchedAt));
      this.options.logger?.info(
        { path: this.options.path, years: this.calendar?.years },
        'calendar loaded from disk',
      );
    } catch (err) {
      this.diskProblem = `stored copy at ${this.options.path} is invalid (${message(err)})`;
      this.options.logger?.warn({ path: this.options.path, err }, 'stored calendar ignored');
    }
  }

  /** `work`'s result, or undefined if it takes longer than `ms` of network time. */
  private within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
    return new Promise<T | undefined>((resolve, reject) => {
      const timer = this.networkClock.scheduler.schedule(() => resolve(undefined), ms);
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

  /** One fetch, abandoned (and its signal aborted) after `fetchTimeoutMs`. */
  private async fetchOnce(): Promise<Holidays> {
    const abort = new AbortController();
    const answer = this.options.fetchHolidays(abort.signal);
    const data = await this.within(answer, this.fetchTimeoutMs);
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
      const merged = this.data === undefined ? fresh : mergeHolidays(this.data, fresh);
      this.install(merged, 'service', this.clock.now());
    } catch (err) {
      this.lastError = message(err);
      const retryInMs = this.armRetry();
      this.options.logger?.warn(
        { err: this.lastError, service: this.serviceName, retryInMs },
        'calendar fetch failed; keeping last good copy',
      );
      return this.status();
    }
    this.lastError = undefined;
    try {
      await this.save();
    } catch (err) {
      this.lastError = `could not save ${this.options.path}: ${message(err)}`;
      this.options.logger?.warn({ err: this.lastError }, 'calendar not saved');
    }
    // At the year change the service may still serve last year's list for a while.
    if (this.calendar?.covers(this.clock.now()) === false) {
      this.lastError = `service returned no data for the current year (has ${this.calendar.years.join(', ')})`;
      this.armRetry();
    } else {
      this.failures = 0;
      this.retryTimer?.unsubscribe();
      this.retryTimer = undefined;
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

  private async save(): Promise<void> {
    const { path } = this.options;
    const body = {
      format: 'tiqs-runner/holidays@1',
      fetchedAt: toIstIso(this.fetchedAt),
      data: this.data,
    };
    await mkdir(dirname(path), { recursive: true });
    // Write then rename, so a crash mid-write never leaves a torn file in place.
    const tmp = `${path}.${process.pid}.${this.saveSeq++}.tmp`;
    try {
      await writeFile(tmp, `${JSON.stringify(body, null, 2)}\n`, 'utf8');
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /** Schedules the next try, backing off (doubling to the cap); returns its delay. */
  private armRetry(): number | undefined {
    if (this.retryTimer !== undefined || this.dailyTimer === undefined) return undefined;
    const delay = Math.min(
      this.maxRetryDelayMs,
      this.retryDelayMs * 2 ** Math.min(this.failures, 30),
    );
    this.failures++;
    this.retryTimer = this.networkClock.scheduler.schedule(() => {
      this.retryTimer = undefined;
      void this.refresh();
    }, delay);
    return delay;
  }

  private armDaily(): void {
    const now = this.clock.now();
    const next = this.nextRefreshAt(now);
    const wait = next - now;
    this.dailyTimer = this.clock.scheduler.schedule(
      () => {
        if (this.clock.now() >= next) void this.refresh();
        this.armDaily();
      },
      Math.min(wait, MAX_WAIT_MS),
    );
  }

  private nextRefreshAt(now: number): number {
    const today = istDayNumber(now);
    for (let d = today; d <= today + 1; d++) {
      for (const minute of this.refreshMinutes) {
        const at = d * DAY_MS - IST_OFFSET_MS + minute * 60_000;
        if (at > now) return at;
      }
    }
    return now + DAY_MS;
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
