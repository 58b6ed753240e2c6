import { CANDLE_INTERVAL_MS, type CandleInterval } from '../../domain/candle.ts';
import { DAY_MS, istDayNumber, istDayStartOf } from '../../domain/ist.ts';
import type { Exchange } from '../../domain/order-params.ts';
import type { CandleCalendar } from './candle-calendar.ts';

/** Longest look back, in calendar days; more than a year of daily candles. */
const MAX_DAYS = 800;

/**
 * The start of the `slots`-th completed candle slot before `now`, walking back through
 * the calendar's sessions (so nights, weekends and holidays cost nothing), or the
 * earliest reached within {@link MAX_DAYS}.
 *
 * @example
 * ```ts
 * lookbackStart(calendar, Date.parse('2026-11-23T09:20:00+05:30'), '1m', 10);
 * // 15:25 IST on Friday 2026-11-20: five slots today, five before Friday's close
 * ```
 */
export function lookbackStart(
  calendar: CandleCalendar,
  now: number,
  interval: CandleInterval,
  slots: number,
  exchange?: Exchange,
): number {
  const ms = CANDLE_INTERVAL_MS[interval];
  let left = slots;
  let earliest = now;
  const today = istDayNumber(now);
  for (let day = today; day > today - MAX_DAYS && left > 0; day--) {
    const sessions = calendar.sessions(istDayStartOf(day) + DAY_MS / 2, exchange);
    for (let i = sessions.length - 1; i >= 0 && left > 0; i--) {
      const s = sessions[i];
      if (s === undefined || s.start >= now) continue;
      // Slot starts of this session whose candle has ended by `now`, newest first.
      const count = Math.ceil((s.end - s.start) / ms);
      for (let k = count - 1; k >= 0 && left > 0; k--) {
        const start = s.start + k * ms;
        if (Math.min(start + ms, s.end) > now) continue;
        earliest = start;
        left--;
      }
    }
  }
  return earliest;
}
