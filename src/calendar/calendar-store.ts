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
  readonly clock: Clock;
  /** The holidays operation; the service returns the current year only. */
  readonly fetchHolidays: () => Promise<Holidays>;
  /** JSON file holding the last good (merged) copy. */
  readonly path: string;
  /** Calendar options; `outsideCoverage` defaults to `closed` here, unlike the bare calendar. */
  readonly calendarOptions?: Omit<CalendarOptions, 'years'>;
  /** IST times of the daily refetch. Default `['00:01', '08:00']`: just after the (year) change of date, and before pre-open. */
  readonly refreshAt?: readonly string[];
  /** Wait before retrying a failed or stale fetch. Default 5 minutes. */
  readonly retryDelayMs?: number;
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
  private readonly options: CalendarStoreOptions;
  private readonly refreshMinutes: readonly number[];
  private readonly retryDelayMs: number;
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
    this.refreshMinutes = (options.refreshAt ?? ['00:01', '08:00'])
      .map((t) => parseTimeOfDay(t, 'refreshAt'))
      .sort((a, b) => a - b);
    this.retryDelayMs = options.retryDelayMs ?? 300_000;
    this.calendar$ = this.current$.pipe(filter((c): c is TradingCalendar => c !== undefined));
  }

  /** The current calendar, or undefined when there is none. */
  get calendar(): TradingCalendar | undefined {
    return this.current$.value;
  }

  /** Loads the stored copy, fetches a fresh one, and starts the refresh timers. */
  async start(): Promise<CalendarStatus> {
    if (this.calendar === undefined) await this.loadStored();
    if (this.dailyTimer === undefined) this.armDaily();
    return this.refresh();
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

  private async doRefresh(): Promise<CalendarStatus> {
    let fresh: Holidays;
    try {
      fresh = holidaysSchema.parse(await this.options.fetchHolidays());
      const merged = this.data === undefined ? fresh : mergeHolidays(this.data, fresh);
      this.install(merged, 'service', this.clock.now());
    } catch (err) {
      this.lastError = message(err);
      this.options.logger?.warn(
        { err: this.lastError },
        'calendar fetch failed; keeping last good copy',
      );
      this.armRetry();
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

  private armRetry(): void {
    if (this.retryTimer !== undefined || this.dailyTimer === undefined) return;
    this.retryTimer = this.clock.scheduler.schedule(() => {
      this.retryTimer = undefined;
      void this.refresh();
    }, this.retryDelayMs);
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
