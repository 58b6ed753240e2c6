/**
 * Formatting of instants in Indian Standard Time for the wire. IST has no daylight
 * saving, so a fixed offset is exact and far cheaper than a time-zone library on the
 * per-record hot path.
 */

/** IST offset from UTC, ms. */
export const IST_OFFSET_MS = 19_800_000;
/** One day, ms. */
export const DAY_MS = 86_400_000;

const MONTHS = [
  'JAN',
  'FEB',
  'MAR',
  'APR',
  'MAY',
  'JUN',
  'JUL',
  'AUG',
  'SEP',
  'OCT',
  'NOV',
  'DEC',
] as const;

/** Calendar fields of an instant in IST. */
export interface IstParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** 0 = Sunday. */
  weekday: number;
}

const p2 = (n: number): string => String(n).padStart(2, '0');

/** Splits an epoch-ms instant into IST calendar fields. */
export function istParts(ms: number): IstParts {
  const d = new Date(ms + IST_OFFSET_MS);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    weekday: d.getUTCDay(),
  };
}

/** Epoch ms of 00:00 IST on the day of `ms`. */
export function istMidnight(ms: number): number {
  return Math.floor((ms + IST_OFFSET_MS) / DAY_MS) * DAY_MS - IST_OFFSET_MS;
}

/** Epoch ms of an IST wall-clock time. */
export function istInstant(year: number, month: number, day: number, hour = 0, minute = 0): number {
  return Date.UTC(year, month - 1, day, hour, minute) - IST_OFFSET_MS;
}

/** `HH:MM:SS DD-MM-YYYY` (the spec's `timeStamp`). */
export function formatTimeStamp(ms: number): string {
  const t = istParts(ms);
  return `${p2(t.hour)}:${p2(t.minute)}:${p2(t.second)} ${p2(t.day)}-${p2(t.month)}-${t.year}`;
}

/** `DD-MM-YYYY HH:MM:SS` (the spec's `exchangeUpdateTime` and `fillTime`). */
export function formatDateTime(ms: number): string {
  const t = istParts(ms);
  return `${p2(t.day)}-${p2(t.month)}-${t.year} ${p2(t.hour)}:${p2(t.minute)}:${p2(t.second)}`;
}

/** `DD-MM-YYYY` (holiday keys). */
export function formatDateKey(ms: number): string {
  const t = istParts(ms);
  return `${p2(t.day)}-${p2(t.month)}-${t.year}`;
}

/** `DD-MON-YYYY` (expiries). */
export function formatExpiry(ms: number): string {
  const t = istParts(ms);
  return `${p2(t.day)}-${MONTHS[t.month - 1]}-${t.year}`;
}

/** `DDMONYY`, as inside NFO trading symbols (`NIFTY27JAN26C25800`). */
export function formatSymbolDate(ms: number): string {
  const t = istParts(ms);
  return `${p2(t.day)}${MONTHS[t.month - 1]}${String(t.year).slice(2)}`;
}

/** Unix epoch seconds as text (the spec's `orderTime`). */
export function formatEpochSeconds(ms: number): string {
  return String(Math.floor(ms / 1000));
}
