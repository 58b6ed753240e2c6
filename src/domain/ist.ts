import { DateTime } from 'luxon';

/**
 * Indian Standard Time, the exchange's clock: the one home of its offset, the day length
 * and the day arithmetic every layer counts by (calendar, daily limits, the simulator's
 * sessions). IST is UTC+05:30 all year (no daylight saving since 1945), so a fixed offset
 * is exact and keeps hot paths such as `isOpen(ms)` off luxon.
 */

/**
 * The IANA zone of Indian Standard Time. `Intl` may report it back as `Asia/Calcutta`, so
 * code compares offsets ({@link IST_OFFSET_MINUTES}), never zone names.
 */
export const IST_ZONE = 'Asia/Kolkata';

/** IST's offset from UTC, minutes. */
export const IST_OFFSET_MINUTES = 330;

/** IST's offset from UTC, ms. */
export const IST_OFFSET_MS = IST_OFFSET_MINUTES * 60_000;

/** One day, ms. */
export const DAY_MS = 86_400_000;

/** Day number of the IST calendar date holding `ms` (days since 1970-01-01 IST). */
export function istDayNumber(ms: number): number {
  return Math.floor((ms + IST_OFFSET_MS) / DAY_MS);
}

/** Epoch ms of 00:00 IST on the IST day holding `ms`. */
export function istDayStart(ms: number): number {
  return istDayNumber(ms) * DAY_MS - IST_OFFSET_MS;
}

/** Epoch ms of 00:00 IST on day number `day` (see {@link istDayNumber}). */
export function istDayStartOf(day: number): number {
  return day * DAY_MS - IST_OFFSET_MS;
}

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

/** 1946-01-01 and 10000-01-01 IST: between them Asia/Kolkata is UTC+05:30 throughout. */
const MIN_FAST_ISO_MS = Date.UTC(1946, 0, 1) - IST_OFFSET_MS;
const MAX_FAST_ISO_MS = Date.UTC(10000, 0, 1) - IST_OFFSET_MS;

/** Formats epoch ms as ISO-8601 in IST, with the `+05:30` offset. */
export function toIstIso(ms: number): string {
  // By the fixed offset, as luxon prints it: luxon's first use of a zone builds an
  // Intl.DateTimeFormat, which loads ICU's zone data (tens of ms on the way to the
  // first poll). Luxon still formats the rest: the zone's history before 1946 (+05:21,
  // +06:30 in the war), years past 9999, non-integers.
  if (Number.isInteger(ms) && ms >= MIN_FAST_ISO_MS && ms < MAX_FAST_ISO_MS)
    return `${new Date(ms + IST_OFFSET_MS).toISOString().slice(0, -1)}+05:30`;
  return DateTime.fromMillis(ms, { zone: IST_ZONE }).toISO() ?? String(ms);
}
