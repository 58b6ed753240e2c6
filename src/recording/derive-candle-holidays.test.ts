import { describe, expect, it } from 'vitest';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import { istDayNumber } from '../domain/ist.ts';
import { deriveCandleHolidays } from './derive-candle-holidays.ts';

const ist = (s: string): number => Date.parse(`${s}+05:30`);

/** Days traded 09:15–15:30 (or `hours`) on these IST dates. */
function traded(dates: string[], hours = ['09:15', '15:30']) {
  return new Map(
    dates.map((d) => [
      istDayNumber(ist(`${d}T12:00:00`)),
      { first: ist(`${d}T${hours[0]}:00`), lastEnd: ist(`${d}T${hours[1]}:00`) },
    ]),
  );
}

describe('deriveCandleHolidays', () => {
  it('calls a weekday without bars a holiday and a weekend day with bars a special session', () => {
    // Thu 2, Fri 3 (no bars), Sat 4 (bars 18:00–19:00), Mon 6 Jan 2025.
    const days = new Map([
      ...traded(['2025-01-02', '2025-01-06']),
      ...traded(['2025-01-04'], ['18:00', '19:00']),
    ]);
    expect(deriveCandleHolidays('2025-01-02', '2025-01-06', days)).toEqual({
      holidays: { '03-01-2025': 'no bars (derived)' },
      specialTradingDays: { '04-01-2025': ['18:00-19:00'] },
    });
  });

  it('leaves out the years the source covers, and marks a derived year with no entry as covered', () => {
    const days = traded(['2025-12-30', '2025-12-31', '2026-01-01', '2026-01-02']);
    expect(deriveCandleHolidays('2025-12-30', '2026-01-02', days, new Set([2026]))).toEqual({
      // 5 Jan 2025 is the year's first Sunday.
      holidays: { '05-01-2025': 'Sunday (derived: marks the year as covered)' },
      specialTradingDays: {},
    });
  });

  it('gives a weekend 1d bar (which ends a day later) a session that ends after it starts', () => {
    // Sat 1 Feb 2025 (Budget day) has a day bar stamped 09:15; it ends Sun 09:15.
    const days = traded(['2025-01-31', '2025-02-01', '2025-02-03'], ['09:15', '09:15']);
    for (const [day, t] of days) days.set(day, { first: t.first, lastEnd: t.first + 86_400_000 });
    const out = deriveCandleHolidays('2025-01-31', '2025-02-03', days);
    expect(out.specialTradingDays).toEqual({ '01-02-2025': ['09:15-15:30'] });
    // The calendar built from it takes it (a 09:15-09:15 session throws).
    expect(() => TradingCalendar.fromHolidays(out)).not.toThrow();
  });
});
