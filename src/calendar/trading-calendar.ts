import type { Holidays } from '../api/schemas/utilities.ts';
import { DAY_MS, istDayNumber, istDayStartOf } from '../domain/ist.ts';
import type { Exchange } from '../domain/order-params.ts';
import { CalendarDataError, InvalidInstantError } from './calendar-errors.ts';
import { type Instant, toEpochMs } from './instant.ts';
import {
  type ExchangeSessionOverrides,
  type MinuteRange,
  parseMinuteRange,
  type ResolvedSessionConfig,
  resolveExchangeSessions,
} from './session-config.ts';

export type { Instant } from './instant.ts';

/** Where a session comes from: the exchange's weekly hours, or a special trading day. */
export type SessionKind = 'regular' | 'special';

/**
 * One trading session, `[start, end)` in epoch milliseconds.
 *
 * @example
 * ```ts
 * const muhurat: Session = {
 *   start: Date.parse('2026-11-08T18:00:00+05:30'),
 *   end: Date.parse('2026-11-08T19:00:00+05:30'),
 *   kind: 'special',
 *   label: 'Diwali Laxmi Pujan',
 * };
 * ```
 */
export interface Session {
  readonly start: number;
  readonly end: number;
  readonly kind: SessionKind;
  /** For special sessions: the holiday's name when the day is a holiday, else `special trading day`. */
  readonly label?: string;
}

/** Market phase at an instant. Between pre-open's end and the open (09:08–09:15) is `closed`. */
export type MarketPhase = 'closed' | 'pre-open' | 'open';

/**
 * What to do with a special trading day that falls on a regular trading day: `add` its
 * ranges to the regular session (overlapping or touching ranges merge into one), or
 * `replace` the regular session with them.
 */
export type SpecialOnTradingDay = 'add' | 'replace';

/**
 * How to treat dates in years the holiday data does not cover: `regular` assumes the
 * weekly schedule with no holidays; `closed` treats them as closed (what a live bot wants:
 * no orders on a day it cannot vouch for).
 */
export type OutsideCoverage = 'regular' | 'closed';

/**
 * Options of {@link TradingCalendar.fromHolidays}.
 *
 * @example
 * ```ts
 * const calendar = TradingCalendar.fromHolidays(data, {
 *   exchanges: { NSE: { preOpen: null } },
 *   outsideCoverage: 'closed',
 * });
 * ```
 */
export interface CalendarOptions {
  /** Per-exchange session times; see {@link ExchangeSessionOverrides}. */
  readonly exchanges?: ExchangeSessionOverrides;
  /** Default `add`. */
  readonly specialOnTradingDay?: SpecialOnTradingDay;
  /** Default `regular`. */
  readonly outsideCoverage?: OutsideCoverage;
  /**
   * Years the data covers. Default: the years of its keys. Give it when a year's data is
   * known to be complete but has no entry (never the case for NSE/BSE in practice).
   */
  readonly years?: readonly number[];
}

/** A date the calendar can be asked about: an instant (its IST date), `YYYY-MM-DD` or `DD-MM-YYYY`. */
export type CalendarDate = Instant;

/**
 * Everything the calendar knows about one IST date and exchange.
 *
 * @example
 * ```ts
 * calendar.day('2026-11-08');
 * // { date: '2026-11-08', exchange: 'NSE', tradingDay: true, holiday: 'Diwali Laxmi Pujan',
 * //   covered: true, sessions: [{ start, end, kind: 'special', label: 'Diwali Laxmi Pujan' }] }
 * ```
 */
export interface TradingDay {
  /** IST date, `YYYY-MM-DD`. */
  readonly date: string;
  readonly exchange: Exchange;
  /** True when the day has at least one session. */
  readonly tradingDay: boolean;
  /** The holiday's name, when the data lists one. */
  readonly holiday?: string;
  /** Whether the holiday data covers this date's year. */
  readonly covered: boolean;
  /** Pre-open window in epoch ms; only on days with a regular session. */
  readonly preOpen?: { readonly start: number; readonly end: number };
  readonly sessions: readonly Session[];
}

/** Longest stretch searched for the next session; a year of closures is already absurd. */
const SEARCH_DAYS = 400;
const DEFAULT_EXCHANGE: Exchange = 'NSE';

interface SpecialDay {
  readonly ranges: readonly MinuteRange[];
}

/**
 * The trading calendar of NSE, BSE, NFO and BFO, in IST, built from the holidays
 * operation's data plus weekends and per-exchange session hours.
 *
 * Rules:
 * - Sessions are half-open `[start, end)`: open at 09:15:00.000, closed at 15:30:00.000.
 * - A holiday or weekend has no regular session. Its special ranges, if any, are its only
 *   sessions (Muhurat on a holiday, budget day on a Sunday).
 * - A special day that is a regular trading day adds its ranges by default (see
 *   {@link SpecialOnTradingDay}).
 * - Special sessions have no pre-open phase: the service gives only the open range.
 * - Dates are IST dates. Instants may come in any zone; only the offset matters.
 *
 * Per-day results are cached, so `isOpen(ms)` in a backtest loop is cheap.
 *
 * @example
 * ```ts
 * const calendar = TradingCalendar.fromHolidays(data);
 * calendar.isOpen('2026-11-08T12:45:00Z'); // 18:15 IST, Muhurat: true
 * calendar.nextOpen(Date.parse('2026-11-20T10:00:00Z')); // Monday 2026-11-23 09:15 IST
 * ```
 */
export class TradingCalendar {
  /** Years (IST) the holiday data covers, ascending. */
  readonly years: readonly number[];
  private readonly yearSet: ReadonlySet<number>;
  private readonly holidays: ReadonlyMap<number, string>;
  private readonly specials: ReadonlyMap<number, SpecialDay>;
  private readonly config: Record<Exchange, ResolvedSessionConfig>;
  private readonly specialOnTradingDay: SpecialOnTradingDay;
  private readonly outsideCoverage: OutsideCoverage;
  private readonly cache = new Map<Exchange, Map<number, TradingDay>>();

  private constructor(data: Holidays, options: CalendarOptions) {
    const years = new Set<number>(options.years ?? []);
    const holidays = new Map<number, string>();
    for (const [key, name] of Object.entries(data.holidays)) {
      const day = parseDateKey(key, 'holidays');
      holidays.set(day, name);
      years.add(yearOfDay(day));
    }
    const specials = new Map<number, SpecialDay>();
    for (const [key, texts] of Object.entries(data.specialTradingDays)) {
      const day = parseDateKey(key, 'specialTradingDays');
      const ranges = texts.map((text) => {
        const [start = '', end = '', ...rest] = text.split('-');
        if (rest.length > 0) {
          throw new CalendarDataError(
            `specialTradingDays ${key}: expected "HH:MM-HH:MM", got ${JSON.stringify(text)}`,
          );
        }
        return parseMinuteRange({ start, end }, `specialTradingDays ${key} ${text}`);
      });
      specials.set(day, { ranges });
      years.add(yearOfDay(day));
    }
    this.years = [...years].sort((a, b) => a - b);
    this.yearSet = years;
    this.holidays = holidays;
    this.specials = specials;
    this.config = resolveExchangeSessions(options.exchanges);
    this.specialOnTradingDay = options.specialOnTradingDay ?? 'add';
    this.outsideCoverage = options.outsideCoverage ?? 'regular';
  }

  /**
   * Builds a calendar from the holidays operation's `data` (spec §2.8); throws
   * {@link CalendarDataError} on a malformed key or range.
   */
  static fromHolidays(data: Holidays, options: CalendarOptions = {}): TradingCalendar {
    return new TradingCalendar(data, options);
  }

  /** True when the holiday data covers the IST year of `at`. */
  covers(at: CalendarDate): boolean {
    return this.yearSet.has(yearOfDay(toDayNumber(at)));
  }

  /** True when `at` falls inside a session. */
  isOpen(at: Instant, exchange: Exchange = DEFAULT_EXCHANGE): boolean {
    return this.sessionAt(at, exchange) !== undefined;
  }

  /** The session holding `at`, if any. */
  sessionAt(at: Instant, exchange: Exchange = DEFAULT_EXCHANGE): Session | undefined {
    const ms = toEpochMs(at);
    // A loop, not `find` with a closure: the replay asks at every timer of every virtual
    // day (≈ 3% of a 30-day backtest's allocations were that closure; issue 13).
    for (const s of this.dayOf(istDayNumber(ms), exchange).sessions) {
      if (s.start <= ms && ms < s.end) return s;
    }
    return undefined;
  }

  /** `open` inside a session, `pre-open` inside the pre-open window, else `closed`. */
  phase(at: Instant, exchange: Exchange = DEFAULT_EXCHANGE): MarketPhase {
    const ms = toEpochMs(at);
    const day = this.dayOf(istDayNumber(ms), exchange);
    if (day.sessions.some((s) => s.start <= ms && ms < s.end)) return 'open';
    if (day.preOpen !== undefined && day.preOpen.start <= ms && ms < day.preOpen.end)
      return 'pre-open';
    return 'closed';
  }

  /** Sessions of the IST date of `date`, in order. */
  sessions(date: CalendarDate, exchange: Exchange = DEFAULT_EXCHANGE): readonly Session[] {
    return this.dayOf(toDayNumber(date), exchange).sessions;
  }

  /** True when the IST date of `date` has at least one session. */
  isTradingDay(date: CalendarDate, exchange: Exchange = DEFAULT_EXCHANGE): boolean {
    return this.dayOf(toDayNumber(date), exchange).tradingDay;
  }

  /** Everything known about the IST date of `date`. */
  day(date: CalendarDate, exchange: Exchange = DEFAULT_EXCHANGE): TradingDay {
    return this.dayOf(toDayNumber(date), exchange);
  }

  /** Start of the first session starting strictly after `after`; undefined if none is known. */
  nextOpen(after: Instant, exchange: Exchange = DEFAULT_EXCHANGE): number | undefined {
    const ms = toEpochMs(after);
    for (const s of this.upcomingSessions(ms, exchange)) if (s.start > ms) return s.start;
    return undefined;
  }

  /**
   * End of the session open at `after`, or of the next one; strictly after `after`.
   * Undefined if none is known.
   */
  nextClose(after: Instant, exchange: Exchange = DEFAULT_EXCHANGE): number | undefined {
    const ms = toEpochMs(after);
    for (const s of this.upcomingSessions(ms, exchange)) return s.end;
    return undefined;
  }

  /**
   * Sessions that end after `from` (the open one first, if any), in order, searching at most
   * about a year ahead and, with `outsideCoverage: 'closed'`, not past the covered years.
   */
  *upcomingSessions(from: Instant, exchange: Exchange = DEFAULT_EXCHANGE): Generator<Session> {
    const ms = toEpochMs(from);
    const first = istDayNumber(ms);
    const lastCovered = this.years.at(-1);
    for (let d = first; d < first + SEARCH_DAYS; d++) {
      if (
        this.outsideCoverage === 'closed' &&
        (lastCovered === undefined || yearOfDay(d) > lastCovered)
      ) {
        return;
      }
      for (const s of this.dayOf(d, exchange).sessions) if (s.end > ms) yield s;
    }
  }

  private dayOf(day: number, exchange: Exchange): TradingDay {
    let byDay = this.cache.get(exchange);
    if (byDay === undefined) {
      byDay = new Map();
      this.cache.set(exchange, byDay);
    }
    let plan = byDay.get(day);
    if (plan === undefined) {
      plan = this.plan(day, exchange);
      byDay.set(day, plan);
    }
    return plan;
  }

  private plan(day: number, exchange: Exchange): TradingDay {
    const cfg = this.config[exchange];
    const date = new Date(day * DAY_MS).toISOString().slice(0, 10);
    const covered = this.yearSet.has(yearOfDay(day));
    const holiday = this.holidays.get(day);
    const base = { date, exchange, covered, ...(holiday === undefined ? {} : { holiday }) };
    if (!covered && this.outsideCoverage === 'closed')
      return { ...base, tradingDay: false, sessions: [] };

    const midnight = istDayStartOf(day);
    const at = (minute: number): number => midnight + minute * 60_000;
    const special = this.specials.get(day);
    const weekly = cfg.weekdays.has(isoWeekday(day)) && holiday === undefined;
    const regular = weekly && !(special !== undefined && this.specialOnTradingDay === 'replace');

    const parts: Session[] = [];
    if (regular)
      parts.push({ start: at(cfg.regular.start), end: at(cfg.regular.end), kind: 'regular' });
    const label = holiday ?? 'special trading day';
    for (const r of special?.ranges ?? [])
      parts.push({ start: at(r.start), end: at(r.end), kind: 'special', label });
    const sessions = mergeSessions(parts);
    const preOpen =
      regular && cfg.preOpen !== undefined
        ? { preOpen: { start: at(cfg.preOpen.start), end: at(cfg.preOpen.end) } }
        : {};
    return { ...base, ...preOpen, tradingDay: sessions.length > 0, sessions };
  }
}

/**
 * Sorts and merges overlapping or touching sessions: to a strategy, 09:15–15:30 followed by
 * a special 15:30–16:00 is one session that closes at 16:00. A merge holding a special part
 * is `special`, because its hours are not the regular ones.
 */
function mergeSessions(parts: Session[]): Session[] {
  parts.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Session[] = [];
  for (const s of parts) {
    const last = out.at(-1);
    if (last !== undefined && s.start <= last.end) {
      const special = last.kind === 'special' ? last : s.kind === 'special' ? s : undefined;
      out[out.length - 1] = {
        start: last.start,
        end: Math.max(last.end, s.end),
        kind: special === undefined ? 'regular' : 'special',
        ...(special?.label === undefined ? {} : { label: special.label }),
      };
    } else {
      out.push(s);
    }
  }
  return out;
}

function isoWeekday(day: number): number {
  // 1970-01-01 was a Thursday (ISO 4).
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

function yearOfDay(day: number): number {
  return new Date(day * DAY_MS).getUTCFullYear();
}

function dayFromYmd(y: number, m: number, d: number): number | undefined {
  const ms = Date.UTC(y, m - 1, d);
  const check = new Date(ms);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) {
    return undefined;
  }
  return ms / DAY_MS;
}

function parseDateKey(key: string, what: string): number {
  const m = /^(\d{2})-(\d{2})-(\d{4})$/.exec(key);
  const day = m === null ? undefined : dayFromYmd(Number(m[3]), Number(m[2]), Number(m[1]));
  if (day === undefined)
    throw new CalendarDataError(`${what}: ${JSON.stringify(key)} is not a date "DD-MM-YYYY"`);
  return day;
}

function toDayNumber(date: CalendarDate): number {
  if (typeof date === 'string') {
    const dmy = /^(\d{2})-(\d{2})-(\d{4})$/.exec(date);
    const ymd = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
    if (dmy !== null || ymd !== null) {
      const day =
        dmy !== null
          ? dayFromYmd(Number(dmy[3]), Number(dmy[2]), Number(dmy[1]))
          : dayFromYmd(Number(ymd?.[1]), Number(ymd?.[2]), Number(ymd?.[3]));
      if (day === undefined) throw new InvalidInstantError(date, 'no such date');
      return day;
    }
  }
  return istDayNumber(toEpochMs(date));
}
