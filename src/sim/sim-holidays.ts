import type { Holidays } from '../api/schemas/utilities.ts';

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
