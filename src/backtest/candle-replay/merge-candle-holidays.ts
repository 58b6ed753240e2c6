import type { Holidays } from '../../api/schemas/utilities.ts';
import type { CandleRecordingPart } from '../../recording/candle-recording-reader.ts';

/**
 * The calendar of several candle recordings as one: every part's holidays and special
 * trading days (later parts winning a date both name), or null when none has any.
 *
 * @example
 * ```ts
 * const holidays = mergeCandleHolidays(parts); // for TradingCalendar.fromHolidays
 * ```
 */
export function mergeCandleHolidays(parts: readonly CandleRecordingPart[]): Holidays | null {
  const calendars = parts.flatMap((p) => (p.meta.holidays === null ? [] : [p.meta.holidays]));
  if (calendars.length === 0) return null;
  return {
    holidays: Object.assign({}, ...calendars.map((c) => c.holidays)),
    specialTradingDays: Object.assign({}, ...calendars.map((c) => c.specialTradingDays)),
  };
}
