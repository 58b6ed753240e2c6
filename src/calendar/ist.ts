import { DateTime } from 'luxon';

/**
 * The IANA zone of Indian Standard Time. `Intl` may report it back as `Asia/Calcutta`, so
 * code compares offsets ({@link IST_OFFSET_MINUTES}), never zone names.
 */
export const IST_ZONE = 'Asia/Kolkata';

/** IST is UTC+05:30 all year: India has had no daylight saving since 1945. */
export const IST_OFFSET_MINUTES = 330;

const OFFSET_MS = IST_OFFSET_MINUTES * 60_000;
const DAY_MS = 86_400_000;

/**
 * Day number of the IST calendar date holding `ms` (days since 1970-01-01 IST). Plain
 * arithmetic because the offset is fixed; it keeps hot paths such as `isOpen(ms)` off luxon.
 */
export function istDayNumber(ms: number): number {
  return Math.floor((ms + OFFSET_MS) / DAY_MS);
}

/** The IST calendar date of a day number as a luxon `DateTime` at IST midnight. */
export function istMidnight(day: number): DateTime {
  return DateTime.fromMillis(day * DAY_MS - OFFSET_MS, { zone: IST_ZONE });
}

/** Formats epoch ms as ISO-8601 in IST, with the `+05:30` offset. */
export function toIstIso(ms: number): string {
  return DateTime.fromMillis(ms, { zone: IST_ZONE }).toISO() ?? String(ms);
}
