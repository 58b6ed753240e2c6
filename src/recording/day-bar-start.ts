import type { Holidays } from '../api/schemas/utilities.ts';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import { istDayStart } from '../domain/ist.ts';
import type { Exchange } from '../domain/order-params.ts';

/** 09:15 IST, the regular open of every exchange the framework trades. */
const REGULAR_OPEN_MS = (9 * 60 + 15) * 60_000;

/**
 * Restamps `1d` bars to their session's open. The endpoint (and many vendor files) stamp a
 * day bar 00:00 IST; the framework's day candle starts at the day's first session
 * (`EndpointCandleHistory`, `CandleBuilder`), and a candle replay skips bars outside
 * every session. The open comes from `holidays` when given (a special session such as
 * Muhurat opens at its own time), else the regular 09:15.
 *
 * @example
 * ```ts
 * const restamp = dayBarStart(sourceHolidays, 'NSE');
 * restamp(Date.parse('2025-01-02T00:00:00+05:30')); // 2025-01-02T09:15 IST
 * ```
 */
export function dayBarStart(
  holidays: Holidays | null,
  exchange: Exchange,
): (stamp: number) => number {
  const calendar =
    holidays === null
      ? undefined
      : TradingCalendar.fromHolidays(holidays, { outsideCoverage: 'regular' });
  return (stamp) => {
    const day = istDayStart(stamp);
    if (stamp !== day) return stamp;
    return calendar?.sessions(day, exchange)[0]?.start ?? day + REGULAR_OPEN_MS;
  };
}
