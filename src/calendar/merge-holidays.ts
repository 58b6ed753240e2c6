import type { Holidays } from '../api/schemas/utilities.ts';

function yearOfKey(key: string): string {
  return key.slice(6);
}

/**
 * Merges a fresh copy of holiday data over an older one, year by year: every year the
 * fresh copy has a key in replaces that year of the old copy entirely (so a holiday the
 * exchange withdrew disappears), and other years of the old copy are kept. This is how the
 * calendar keeps last year while the service only returns the current one.
 *
 * @example
 * ```ts
 * mergeHolidays(stored2026, fresh2027); // both years, 2027 from the fresh copy
 * ```
 */
export function mergeHolidays(older: Holidays, fresher: Holidays): Holidays {
  const freshYears = new Set(
    [...Object.keys(fresher.holidays), ...Object.keys(fresher.specialTradingDays)].map(yearOfKey),
  );
  const keep = <T>(record: Record<string, T>): [string, T][] =>
    Object.entries(record).filter(([key]) => !freshYears.has(yearOfKey(key)));
  const sorted = <T>(entries: [string, T][]): Record<string, T> =>
    Object.fromEntries(entries.sort(([a], [b]) => sortKey(a).localeCompare(sortKey(b))));
  return {
    holidays: sorted([...keep(older.holidays), ...Object.entries(fresher.holidays)]),
    specialTradingDays: sorted([
      ...keep(older.specialTradingDays),
      ...Object.entries(fresher.specialTradingDays),
    ]),
  };
}

/** `DD-MM-YYYY` to `YYYYMMDD`, so the stored file reads in date order. */
function sortKey(key: string): string {
  return `${key.slice(6)}${key.slice(3, 5)}${key.slice(0, 2)}`;
}
