import type { Holidays } from '../api/schemas/utilities.ts';
import { istParts } from '../domain/ist.ts';

/**
 * The simulator's trading calendar for 2026, in the `/info/holidays` shape: the NSE
 * holiday list plus two special sessions, the Union Budget Sunday (1 Feb, full session)
 * and the Diwali Muhurat evening (8 Nov, 18:00–19:00, on a holiday Sunday).
 */
export const SIM_HOLIDAYS: Holidays = {
  holidays: {
    '26-01-2026': 'Republic Day',
    '03-03-2026': 'Holi',
    '26-03-2026': 'Shri Ram Navami',
    '31-03-2026': 'Shri Mahavir Jayanti',
    '03-04-2026': 'Good Friday',
    '14-04-2026': 'Dr. Baba Saheb Ambedkar Jayanti',
    '01-05-2026': 'Maharashtra Day',
    '28-05-2026': 'Bakri Id',
    '26-06-2026': 'Muharram',
    '14-09-2026': 'Ganesh Chaturthi',
    '02-10-2026': 'Mahatma Gandhi Jayanti',
    '20-10-2026': 'Dussehra',
    '08-11-2026': 'Diwali Laxmi Pujan',
    '10-11-2026': 'Diwali-Balipratipada',
    '24-11-2026': 'Prakash Gurpurb Sri Guru Nanak Dev',
    '25-12-2026': 'Christmas',
  },
  specialTradingDays: {
    '01-02-2026': ['09:15-15:30'],
    '08-11-2026': ['18:00-19:00'],
  },
};

const SIM_YEAR = 2026;

/**
 * The simulator's calendar for `year`, as `/info/holidays` would serve it that year: the
 * 2026 list itself, or for any other year the same days and sessions moved to it, so a
 * demo or test in 2027 still sees a realistic, covered calendar.
 */
export function simHolidays(year: number): Holidays {
  if (year === SIM_YEAR) return structuredClone(SIM_HOLIDAYS);
  const move = (key: string): string => `${key.slice(0, 6)}${year}`;
  return {
    holidays: Object.fromEntries(
      Object.entries(SIM_HOLIDAYS.holidays).map(([k, v]) => [move(k), v]),
    ),
    specialTradingDays: Object.fromEntries(
      Object.entries(SIM_HOLIDAYS.specialTradingDays).map(([k, v]) => [move(k), [...v]]),
    ),
  };
}

/** Several years of {@link simHolidays} in one object (trading rules across a year change). */
export function simHolidaysFor(years: readonly number[]): Holidays {
  const out: Holidays = { holidays: {}, specialTradingDays: {} };
  for (const year of years) {
    const h = simHolidays(year);
    Object.assign(out.holidays, h.holidays);
    Object.assign(out.specialTradingDays, h.specialTradingDays);
  }
  return out;
}

/** The IST calendar year of an instant. */
export function istYear(at: number): number {
  return istParts(at).year;
}
