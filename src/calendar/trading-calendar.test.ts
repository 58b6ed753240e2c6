import { readFileSync } from 'node:fs';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import type { Holidays } from '../api/schemas/utilities.ts';
import { toIstIso } from '../domain/ist.ts';
import { CalendarDataError, InvalidInstantError } from './calendar-errors.ts';
import { type Instant, toEpochMs } from './instant.ts';
import { type MarketPhase, TradingCalendar } from './trading-calendar.ts';

const fixture = JSON.parse(
  readFileSync(new URL('../../test/fixtures/holidays-2026.json', import.meta.url), 'utf8'),
) as Holidays;
const calendar = TradingCalendar.fromHolidays(fixture);
const iso = (ms: number | undefined): string | undefined =>
  ms === undefined ? undefined : toIstIso(ms);

interface Row {
  what: string;
  at: Instant;
  open: boolean;
  phase: MarketPhase;
  nextOpen: string | undefined;
  nextClose: string | undefined;
}

describe('TradingCalendar queries at an instant (NSE, 2026 fixture)', () => {
  const rows: Row[] = [
    // Ordinary weekday: Friday 2026-11-20.
    {
      what: 'weekday early morning',
      at: '2026-11-20T08:59:59.999+05:30',
      open: false,
      phase: 'closed',
      nextOpen: '2026-11-20T09:15:00.000+05:30',
      nextClose: '2026-11-20T15:30:00.000+05:30',
    },
    {
      what: 'pre-open starts',
      at: '2026-11-20T09:00:00+05:30',
      open: false,
      phase: 'pre-open',
      nextOpen: '2026-11-20T09:15:00.000+05:30',
      nextClose: '2026-11-20T15:30:00.000+05:30',
    },
    {
      what: 'pre-open last ms',
      at: '2026-11-20T09:07:59.999+05:30',
      open: false,
      phase: 'pre-open',
      nextOpen: '2026-11-20T09:15:00.000+05:30',
      nextClose: '2026-11-20T15:30:00.000+05:30',
    },
    {
      what: 'pre-open over, bell not yet',
      at: '2026-11-20T09:08:00+05:30',
      open: false,
      phase: 'closed',
      nextOpen: '2026-11-20T09:15:00.000+05:30',
      nextClose: '2026-11-20T15:30:00.000+05:30',
    },
    {
      what: 'one ms before the bell',
      at: '2026-11-20T09:14:59.999+05:30',
      open: false,
      phase: 'closed',
      nextOpen: '2026-11-20T09:15:00.000+05:30',
      nextClose: '2026-11-20T15:30:00.000+05:30',
    },
    {
      what: 'at the bell',
      at: '2026-11-20T09:15:00+05:30',
      open: true,
      phase: 'open',
      nextOpen: '2026-11-23T09:15:00.000+05:30',
      nextClose: '2026-11-20T15:30:00.000+05:30',
    },
    {
      what: 'mid-session',
      at: '2026-11-20T12:00:00+05:30',
      open: true,
      phase: 'open',
      nextOpen: '2026-11-23T09:15:00.000+05:30',
      nextClose: '2026-11-20T15:30:00.000+05:30',
    },
    {
      what: 'last ms before close',
      at: '2026-11-20T15:29:59.999+05:30',
      open: true,
      phase: 'open',
      nextOpen: '2026-11-23T09:15:00.000+05:30',
      nextClose: '2026-11-20T15:30:00.000+05:30',
    },
    {
      what: 'at the closing bell (half-open)',
      at: '2026-11-20T15:30:00+05:30',
      open: false,
      phase: 'closed',
      nextOpen: '2026-11-23T09:15:00.000+05:30',
      nextClose: '2026-11-23T15:30:00.000+05:30',
    },
    // Weekday holiday: Christmas, Friday 2026-12-25.
    {
      what: 'weekday holiday, trading hours',
      at: '2026-12-25T10:00:00+05:30',
      open: false,
      phase: 'closed',
      nextOpen: '2026-12-28T09:15:00.000+05:30',
      nextClose: '2026-12-28T15:30:00.000+05:30',
    },
    {
      what: 'weekday holiday, pre-open hours',
      at: '2026-12-25T09:05:00+05:30',
      open: false,
      phase: 'closed',
      nextOpen: '2026-12-28T09:15:00.000+05:30',
      nextClose: '2026-12-28T15:30:00.000+05:30',
    },
    {
      what: 'eve of a holiday after close',
      at: '2026-11-09T16:00:00+05:30',
      open: false,
      phase: 'closed',
      nextOpen: '2026-11-11T09:15:00.000+05:30',
      nextClose: '2026-11-11T15:30:00.000+05:30',
    },
    // Sunday special session 18:00–19:00 on a holiday (Muhurat), 2026-11-08.
    {
      what: 'Muhurat Sunday, morning',
      at: '2026-11-08T10:00:00+05:30',
      open: false,
      phase: 'closed',
      nextOpen: '2026-11-08T18:00:00.000+05:30',
      nextClose: '2026-11-08T19:00:00.000+05:30',
    },
    {
      what: 'Muhurat, just before',
      at: '2026-11-08T17:59:59.999+05:30',
      open: false,
      phase: 'closed',
      nextOpen: '2026-11-08T18:00:00.000+05:30',
      nextClose: '2026-11-08T19:00:00.000+05:30',
    },
    {
      what: 'Muhurat, during',
      at: '2026-11-08T18:30:00+05:30',
      open: true,
      phase: 'open',
      nextOpen: '2026-11-09T09:15:00.000+05:30',
      nextClose: '2026-11-08T19:00:00.000+05:30',
    },
    {
      what: 'Muhurat, after',
      at: '2026-11-08T19:00:00+05:30',
      open: false,
      phase: 'closed',
      nextOpen: '2026-11-09T09:15:00.000+05:30',
      nextClose: '2026-11-09T15:30:00.000+05:30',
    },
    {
      what: 'Friday before Muhurat week',
      at: '2026-11-06T15:30:00+05:30',
      open: false,
      phase: 'closed',
      nextOpen: '2026-11-08T18:00:00.000+05:30',
      nextClose: '2026-11-08T19:00:00.000+05:30',
    },
    // Special full session on a weekend: Sunday 2026-02-01 (budget day).
    {
      what: 'Saturday before budget Sunday',
      at: '2026-01-31T12:00:00+05:30',
      open: false,
      phase: 'closed',
      nextOpen: '2026-02-01T09:15:00.000+05:30',
      nextClose: '2026-02-01T15:30:00.000+05:30',
    },
    {
      what: 'budget Sunday, no pre-open for special sessions',
      at: '2026-02-01T09:05:00+05:30',
      open: false,
      phase: 'closed',
      nextOpen: '2026-02-01T09:15:00.000+05:30',
      nextClose: '2026-02-01T15:30:00.000+05:30',
    },
    {
      what: 'budget Sunday, mid-session',
      at: '2026-02-01T11:00:00+05:30',
      open: true,
      phase: 'open',
      nextOpen: '2026-02-02T09:15:00.000+05:30',
      nextClose: '2026-02-01T15:30:00.000+05:30',
    },
    // Year rollover: Thursday 2026-12-31 to Friday 2027-01-01 (2027 not covered: regular week assumed).
    {
      what: 'last session of the year, after close',
      at: '2026-12-31T15:45:00+05:30',
      open: false,
      phase: 'closed',
      nextOpen: '2027-01-01T09:15:00.000+05:30',
      nextClose: '2027-01-01T15:30:00.000+05:30',
    },
    // Instants in UTC across IST midnight.
    {
      what: 'UTC 18:29:59Z is 23:59:59 IST Friday',
      at: '2026-11-20T18:29:59Z',
      open: false,
      phase: 'closed',
      nextOpen: '2026-11-23T09:15:00.000+05:30',
      nextClose: '2026-11-23T15:30:00.000+05:30',
    },
    {
      what: 'UTC 03:45Z is the bell',
      at: '2026-11-20T03:45:00Z',
      open: true,
      phase: 'open',
      nextOpen: '2026-11-23T09:15:00.000+05:30',
      nextClose: '2026-11-20T15:30:00.000+05:30',
    },
    {
      what: 'UTC Saturday evening is IST budget Sunday',
      at: '2026-01-31T20:00:00Z',
      open: false,
      phase: 'closed',
      nextOpen: '2026-02-01T09:15:00.000+05:30',
      nextClose: '2026-02-01T15:30:00.000+05:30',
    },
    {
      what: 'UTC noon Sunday is Muhurat 17:30 IST',
      at: '2026-11-08T12:30:00Z',
      open: true,
      phase: 'open',
      nextOpen: '2026-11-09T09:15:00.000+05:30',
      nextClose: '2026-11-08T19:00:00.000+05:30',
    },
  ];

  it.each(rows)('$what ($at)', ({ at, open, phase, nextOpen, nextClose }) => {
    expect(calendar.isOpen(at)).toBe(open);
    expect(calendar.isOpen(toEpochMs(at))).toBe(open);
    expect(calendar.phase(at)).toBe(phase);
    expect(iso(calendar.nextOpen(at))).toBe(nextOpen);
    expect(iso(calendar.nextClose(at))).toBe(nextClose);
  });
});

describe('TradingCalendar days', () => {
  it.each([
    { date: '2026-11-20', trading: true, sessions: [['09:15', '15:30', 'regular']] },
    { date: '20-11-2026', trading: true, sessions: [['09:15', '15:30', 'regular']] },
    { date: '2026-11-21', trading: false, sessions: [] },
    { date: '2026-12-25', trading: false, sessions: [] },
    { date: '2026-11-08', trading: true, sessions: [['18:00', '19:00', 'special']] },
    { date: '2026-02-01', trading: true, sessions: [['09:15', '15:30', 'special']] },
    // Instants map to their IST date: 18:30Z on the 20th is already the 21st (Saturday) in IST.
    { date: '2026-11-20T18:29:59.999Z', trading: true, sessions: [['09:15', '15:30', 'regular']] },
    { date: '2026-11-20T18:30:00Z', trading: false, sessions: [] },
    { date: '2026-11-07T19:00:00Z', trading: true, sessions: [['18:00', '19:00', 'special']] },
  ])('$date', ({ date, trading, sessions }) => {
    expect(calendar.isTradingDay(date)).toBe(trading);
    const hm = (ms: number): string =>
      DateTime.fromMillis(ms, { zone: 'Asia/Kolkata' }).toFormat('HH:mm');
    expect(calendar.sessions(date).map((s) => [hm(s.start), hm(s.end), s.kind])).toEqual(sessions);
  });

  it('labels a special session on a holiday with the holiday name', () => {
    expect(calendar.day('2026-11-08')).toMatchObject({
      holiday: 'Diwali Laxmi Pujan',
      tradingDay: true,
      covered: true,
      sessions: [{ kind: 'special', label: 'Diwali Laxmi Pujan' }],
    });
    expect(calendar.day('2026-11-08').preOpen).toBeUndefined();
    expect(calendar.day('2026-11-20').preOpen).toEqual({
      start: Date.parse('2026-11-20T09:00:00+05:30'),
      end: Date.parse('2026-11-20T09:08:00+05:30'),
    });
  });
});

describe('TradingCalendar instant forms', () => {
  const bell = Date.parse('2026-11-20T03:45:00Z');
  it.each<{ what: string; at: Instant }>([
    { what: 'epoch ms', at: bell },
    { what: 'Date', at: new Date(bell) },
    { what: 'DateTime in UTC', at: DateTime.fromMillis(bell, { zone: 'UTC' }) },
    { what: 'DateTime in Asia/Calcutta', at: DateTime.fromMillis(bell, { zone: 'Asia/Calcutta' }) },
    {
      what: 'DateTime in America/New_York (previous evening there)',
      at: DateTime.fromMillis(bell, { zone: 'America/New_York' }),
    },
    {
      what: 'DateTime in a fixed +05:30 zone',
      at: DateTime.fromMillis(bell, { zone: 'UTC+5:30' }),
    },
    { what: 'ISO with Z', at: '2026-11-20T03:45:00Z' },
    { what: 'ISO with -05:00', at: '2026-11-19T22:45:00-05:00' },
    { what: 'ISO without offset is IST', at: '2026-11-20T09:15' },
  ])('$what', ({ at }) => {
    expect(toEpochMs(at)).toBe(bell);
    expect(calendar.isOpen(at)).toBe(true);
    expect(calendar.sessions(at)).toHaveLength(1);
  });

  it.each<{ at: Instant }>([
    { at: 'not a date' },
    { at: Number.NaN },
    { at: new Date(Number.NaN) },
    { at: DateTime.invalid('nope') },
  ])('rejects $at', ({ at }) => {
    expect(() => calendar.isOpen(at)).toThrow(InvalidInstantError);
  });

  it('rejects a date key that does not exist', () => {
    expect(() => calendar.sessions('31-02-2026')).toThrow(InvalidInstantError);
  });
});

describe('TradingCalendar coverage and year rollover', () => {
  const with2027: Holidays = {
    holidays: { ...fixture.holidays, '01-01-2027': 'Hypothetical New Year holiday' },
    specialTradingDays: fixture.specialTradingDays,
  };

  it.each([
    {
      what: 'regular week assumed in uncovered 2027',
      data: fixture,
      outside: 'regular' as const,
      next: '2027-01-01T09:15:00.000+05:30',
      covers2027: false,
    },
    {
      what: 'uncovered 2027 closed',
      data: fixture,
      outside: 'closed' as const,
      next: undefined,
      covers2027: false,
    },
    {
      what: '2027 data merged in: holiday on Jan 1',
      data: with2027,
      outside: 'closed' as const,
      next: '2027-01-04T09:15:00.000+05:30',
      covers2027: true,
    },
  ])('$what', ({ data, outside, next, covers2027 }) => {
    const cal = TradingCalendar.fromHolidays(data, { outsideCoverage: outside });
    expect(iso(cal.nextOpen('2026-12-31T15:45:00+05:30'))).toBe(next);
    expect(cal.covers('2027-01-01T10:00:00+05:30')).toBe(covers2027);
    // 2026-12-31T20:00Z is already 2027 in IST.
    expect(cal.covers('2026-12-31T20:00:00Z')).toBe(covers2027);
    expect(cal.covers('2026-12-31T18:29:59Z')).toBe(true);
  });

  it('reports the years its data covers', () => {
    expect(TradingCalendar.fromHolidays(with2027).years).toEqual([2026, 2027]);
    expect(
      TradingCalendar.fromHolidays({ holidays: {}, specialTradingDays: {} }, { years: [2030] })
        .years,
    ).toEqual([2030]);
  });

  it('with outsideCoverage closed, an uncovered day has no sessions', () => {
    const cal = TradingCalendar.fromHolidays(fixture, { outsideCoverage: 'closed' });
    expect(cal.isOpen('2027-01-01T10:00:00+05:30')).toBe(false);
    expect(cal.day('2027-01-01')).toMatchObject({ covered: false, tradingDay: false });
    expect(cal.isOpen('2025-12-31T10:00:00+05:30')).toBe(false);
  });
});

describe('TradingCalendar special sessions on days that are not plain weekends', () => {
  const data: Holidays = {
    holidays: { '10-11-2026': 'Diwali-Balipratipada' },
    specialTradingDays: {
      '10-11-2026': ['18:15-19:15'], // Muhurat on a weekday holiday
      '11-11-2026': ['15:30-16:00'], // touches the regular close
      '12-11-2026': ['18:00-19:00'], // separate evening session
    },
  };
  const hm = (ms: number): string =>
    DateTime.fromMillis(ms, { zone: 'Asia/Kolkata' }).toFormat('HH:mm');
  const show = (cal: TradingCalendar, date: string): string[] =>
    cal.sessions(date).map((s) => `${hm(s.start)}-${hm(s.end)} ${s.kind}`);

  it.each([
    { policy: 'add' as const, date: '2026-11-10', expected: ['18:15-19:15 special'] },
    { policy: 'add' as const, date: '2026-11-11', expected: ['09:15-16:00 special'] },
    {
      policy: 'add' as const,
      date: '2026-11-12',
      expected: ['09:15-15:30 regular', '18:00-19:00 special'],
    },
    { policy: 'replace' as const, date: '2026-11-10', expected: ['18:15-19:15 special'] },
    { policy: 'replace' as const, date: '2026-11-11', expected: ['15:30-16:00 special'] },
    { policy: 'replace' as const, date: '2026-11-12', expected: ['18:00-19:00 special'] },
  ])('$policy: $date', ({ policy, date, expected }) => {
    expect(show(TradingCalendar.fromHolidays(data, { specialOnTradingDay: policy }), date)).toEqual(
      expected,
    );
  });

  it('a holiday with a special session is a trading day with that session only', () => {
    const cal = TradingCalendar.fromHolidays(data);
    expect(cal.isTradingDay('2026-11-10')).toBe(true);
    expect(cal.isOpen('2026-11-10T10:00:00+05:30')).toBe(false);
    expect(cal.phase('2026-11-10T09:05:00+05:30')).toBe('closed');
    expect(cal.isOpen('2026-11-10T18:30:00+05:30')).toBe(true);
  });

  it('with two sessions in a day, nextClose in between is the evening close', () => {
    const cal = TradingCalendar.fromHolidays(data);
    expect(iso(cal.nextClose('2026-11-12T16:00:00+05:30'))).toBe('2026-11-12T19:00:00.000+05:30');
    expect(iso(cal.nextOpen('2026-11-12T16:00:00+05:30'))).toBe('2026-11-12T18:00:00.000+05:30');
    expect(iso(cal.nextClose('2026-11-11T15:45:00+05:30'))).toBe('2026-11-11T16:00:00.000+05:30');
  });
});

describe('TradingCalendar per-exchange sessions', () => {
  const cal = TradingCalendar.fromHolidays(fixture, {
    exchanges: {
      NSE: { preOpen: null },
      BSE: { regular: { start: '09:00', end: '17:00' } },
    },
  });
  it.each([
    { exchange: 'NSE' as const, at: '2026-11-20T09:05:00+05:30', phase: 'closed' },
    { exchange: 'NFO' as const, at: '2026-11-20T09:05:00+05:30', phase: 'closed' },
    { exchange: 'BSE' as const, at: '2026-11-20T09:05:00+05:30', phase: 'open' },
    { exchange: 'BSE' as const, at: '2026-11-20T16:30:00+05:30', phase: 'open' },
    { exchange: 'BFO' as const, at: '2026-11-20T16:30:00+05:30', phase: 'open' },
    { exchange: 'NSE' as const, at: '2026-11-20T16:30:00+05:30', phase: 'closed' },
  ])('$exchange at $at is $phase', ({ exchange, at, phase }) => {
    expect(cal.phase(at, exchange)).toBe(phase);
  });

  it('defaults keep NFO and BFO on NSE/BSE hours with pre-open', () => {
    expect(calendar.phase('2026-11-20T09:05:00+05:30', 'NFO')).toBe('pre-open');
    expect(calendar.phase('2026-11-20T09:05:00+05:30', 'BFO')).toBe('pre-open');
  });
});

describe('TradingCalendar rejects bad data', () => {
  it.each<{ what: string; data: Holidays }>([
    {
      what: 'impossible holiday date',
      data: { holidays: { '30-02-2026': 'x' }, specialTradingDays: {} },
    },
    {
      what: 'range ending before it starts',
      data: { holidays: {}, specialTradingDays: { '01-02-2026': ['15:30-09:15'] } },
    },
    {
      what: 'range with no length',
      data: { holidays: {}, specialTradingDays: { '01-02-2026': ['10:00-10:00'] } },
    },
    {
      what: 'malformed range',
      data: { holidays: {}, specialTradingDays: { '01-02-2026': ['9:15-15:30'] } },
    },
  ])('$what', ({ data }) => {
    expect(() => TradingCalendar.fromHolidays(data)).toThrow(CalendarDataError);
  });

  it('rejects bad session config', () => {
    expect(() =>
      TradingCalendar.fromHolidays(fixture, {
        exchanges: { NSE: { regular: { start: '15:30', end: '09:15' } } },
      }),
    ).toThrow(/NSE regular session/);
  });
});
