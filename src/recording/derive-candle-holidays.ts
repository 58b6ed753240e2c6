import type { Holidays } from '../api/schemas/utilities.ts';
import { istDayStartOf, istParts } from '../domain/ist.ts';
import { dateDay, dayDate } from './candle-chunk-plan.ts';
import type { CandleRecordingSummary } from './candle-recording-scan.ts';

/** `DD-MM-YYYY`, the holiday list's key, of an IST day number. */
function holidayKey(day: number): string {
  const [y, m, d] = dayDate(day).split('-');
  return `${d}-${m}-${y}`;
}

/** `HH:MM` in IST of an instant. */
function hhmm(ms: number): string {
  const p = istParts(ms);
  return `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}`;
}

/**
 * The calendar a candle recording implies for IST dates `from`..`to`: a weekday with no
 * bar of any token is a holiday; a weekend day with bars is a special session from its
 * first bar to its last bar's end. Only for years `skipYears` does not hold (the years a
 * source's own holiday answer covers). Used by `import-candles` (no source) and by
 * `history` for the years before the source's current-year list.
 *
 * @example
 * ```ts
 * deriveCandleHolidays('2025-01-01', '2025-12-31', summary.days, new Set([2026]));
 * ```
 */
export function deriveCandleHolidays(
  from: string,
  to: string,
  days: CandleRecordingSummary['days'],
  skipYears: ReadonlySet<number> = new Set(),
): Holidays {
  const out: Holidays = { holidays: {}, specialTradingDays: {} };
  // IST day numbers count from 1970-01-01 IST, as the date days here count from 1970-01-01.
  for (let day = dateDay(from); day <= dateDay(to); day++) {
    const parts = istParts(istDayStartOf(day));
    if (skipYears.has(parts.year)) continue;
    const weekend = parts.weekday === 0 || parts.weekday === 6;
    const traded = days.get(day);
    if (!weekend && traded === undefined) out.holidays[holidayKey(day)] = 'no bars (derived)';
    if (weekend && traded !== undefined)
      out.specialTradingDays[holidayKey(day)] = [sessionOf(day, traded)];
  }
  markYears(out, from, to, days, skipYears);
  return out;
}

/** The regular close, 15:30 IST, as ms after the IST day's start. */
const REGULAR_CLOSE_MS = (15 * 60 + 30) * 60_000;

/**
 * A weekend day's session as `HH:MM-HH:MM`: first bar start .. last bar end. A bar that
 * ends past the IST day (a `1d` bar ends a day after it starts) would give `09:15-09:15`,
 * which no calendar takes: such a day ends at the regular 15:30 (or, for a bar stamped
 * later, at 23:59), so the end is always after the start.
 */
function sessionOf(day: number, traded: { first: number; lastEnd: number }): string {
  const dayStart = istDayStartOf(day);
  const dayEnd = dayStart + 86_400_000;
  if (traded.lastEnd < dayEnd) return `${hhmm(traded.first)}-${hhmm(traded.lastEnd)}`;
  const close = traded.first < dayStart + REGULAR_CLOSE_MS ? '15:30' : '23:59';
  return `${hhmm(traded.first)}-${close}`;
}

/**
 * A calendar covers a year only when the year has a key (TradingCalendar's coverage), and
 * a replay treats days of uncovered years as closed. A derived year with no holiday and
 * no special session (a short span, say) gets its first Sunday without bars listed, a
 * harmless holiday that marks the year as known.
 */
function markYears(
  out: Holidays,
  from: string,
  to: string,
  days: CandleRecordingSummary['days'],
  skipYears: ReadonlySet<number>,
): void {
  const keyed = holidayYears(out);
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    if (skipYears.has(year) || keyed.has(year)) continue;
    for (let day = dateDay(`${year}-01-01`); ; day++) {
      if (istParts(istDayStartOf(day)).weekday === 0 && !days.has(day)) {
        out.holidays[holidayKey(day)] = 'Sunday (derived: marks the year as covered)';
        break;
      }
    }
  }
}

/** The years a holiday answer has keys in (`DD-MM-YYYY`). */
export function holidayYears(holidays: Holidays | null): Set<number> {
  const keys = [
    ...Object.keys(holidays?.holidays ?? {}),
    ...Object.keys(holidays?.specialTradingDays ?? {}),
  ];
  return new Set(keys.map((k) => Number(k.slice(6, 10))));
}
