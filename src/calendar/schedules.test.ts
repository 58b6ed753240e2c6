import { readFileSync } from 'node:fs';
import { BehaviorSubject, type Observable, take } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import type { Holidays } from '../api/schemas/utilities.ts';
import { schedulerClock } from '../clock/scheduler-clock.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { toIstIso } from '../domain/ist.ts';
import {
  atSessionOpen$,
  atTimeIst$,
  beforeClose$,
  type CalendarTick,
  everyWhileOpen$,
} from './schedules.ts';
import { TradingCalendar } from './trading-calendar.ts';

const fixture = JSON.parse(
  readFileSync(new URL('../../test/fixtures/holidays-2026.json', import.meta.url), 'utf8'),
) as Holidays;
const calendar = TradingCalendar.fromHolidays(fixture);
const ms = (iso: string): number => Date.parse(iso);

/** Subscribes at `start`, advances virtual time to `end`, returns tick instants in IST. */
function collect(
  make: (clock: VirtualClock) => Observable<CalendarTick>,
  start: string,
  end: string,
): { ticks: string[]; clock: VirtualClock; stop: () => void } {
  const clock = new VirtualClock(ms(start));
  const ticks: string[] = [];
  const sub = make(clock).subscribe((t) => {
    expect(clock.now()).toBe(t.at);
    ticks.push(toIstIso(t.at).slice(0, 16));
  });
  clock.advanceTo(ms(end));
  return { ticks, clock, stop: () => sub.unsubscribe() };
}

// Week of Muhurat: Fri 06 regular, Sat 07 closed, Sun 08 Muhurat 18:00–19:00 (holiday),
// Mon 09 regular, Tue 10 holiday, Wed 11 regular.
const WEEK_START = '2026-11-06T08:00:00+05:30';
const WEEK_END = '2026-11-11T23:00:00+05:30';

describe('calendar schedules in virtual time', () => {
  it.each<{
    what: string;
    make: (c: VirtualClock) => Observable<CalendarTick>;
    ticks: string[];
    start?: string;
    end?: string;
  }>([
    {
      what: 'atSessionOpen$ fires at each open, Muhurat included, holiday skipped',
      make: (c) => atSessionOpen$(calendar, c),
      ticks: ['2026-11-06T09:15', '2026-11-08T18:00', '2026-11-09T09:15', '2026-11-11T09:15'],
    },
    {
      what: 'beforeClose$ 15 min fires before each close',
      make: (c) => beforeClose$(calendar, c, 15),
      ticks: ['2026-11-06T15:15', '2026-11-08T18:45', '2026-11-09T15:15', '2026-11-11T15:15'],
    },
    {
      what: 'beforeClose$ longer than a session fires at its start',
      make: (c) => beforeClose$(calendar, c, 90),
      ticks: ['2026-11-06T14:00', '2026-11-08T18:00', '2026-11-09T14:00', '2026-11-11T14:00'],
    },
    {
      what: 'atTimeIst$ fires on trading days only, Muhurat Sunday included',
      make: (c) => atTimeIst$(calendar, c, '08:45'),
      ticks: ['2026-11-06T08:45', '2026-11-08T08:45', '2026-11-09T08:45', '2026-11-11T08:45'],
    },
    {
      what: 'everyWhileOpen$ 20 min on Muhurat Sunday stops before the close',
      make: (c) => everyWhileOpen$(calendar, c, 1_200),
      start: '2026-11-07T08:00:00+05:30',
      end: '2026-11-08T23:00:00+05:30',
      ticks: ['2026-11-08T18:00', '2026-11-08T18:20', '2026-11-08T18:40'],
    },
  ])('$what', ({ make, ticks, start = WEEK_START, end = WEEK_END }) => {
    const run = collect(make, start, end);
    expect(run.ticks).toEqual(ticks);
    run.stop();
    expect(run.clock.pending).toBe(0);
  });

  it('everyWhileOpen$ ticks through a regular day aligned to 09:15', () => {
    const run = collect(
      (c) => everyWhileOpen$(calendar, c, 3_600),
      '2026-11-20T10:00:05+05:30',
      '2026-11-20T23:00:00+05:30',
    );
    expect(run.ticks).toEqual([
      '2026-11-20T10:15',
      '2026-11-20T11:15',
      '2026-11-20T12:15',
      '2026-11-20T13:15',
      '2026-11-20T14:15',
      '2026-11-20T15:15',
    ]);
  });

  it.each([
    {
      what: 'atSessionOpen$ subscribed exactly at the bell fires for it',
      make: (c: VirtualClock) => atSessionOpen$(calendar, c),
      start: '2026-11-20T09:15:00+05:30',
      ticks: ['2026-11-20T09:15', '2026-11-23T09:15'],
    },
    {
      what: 'beforeClose$ subscribed inside the window fires at once, then next day',
      make: (c: VirtualClock) => beforeClose$(calendar, c, 15),
      start: '2026-11-20T15:20:00+05:30',
      ticks: ['2026-11-20T15:20', '2026-11-23T15:15'],
    },
    {
      what: 'beforeClose$ subscribed after the close waits for the next session',
      make: (c: VirtualClock) => beforeClose$(calendar, c, 15),
      start: '2026-11-20T15:30:00+05:30',
      ticks: ['2026-11-23T15:15'],
    },
    {
      what: 'atTimeIst$ subscribed after the time waits for the next trading day',
      make: (c: VirtualClock) => atTimeIst$(calendar, c, '09:00'),
      start: '2026-11-20T09:00:00.001+05:30',
      ticks: ['2026-11-23T09:00'],
    },
  ])('$what', ({ make, start, ticks }) => {
    expect(collect(make, start, '2026-11-23T23:00:00+05:30').ticks).toEqual(ticks);
  });

  it('fires in a long holiday gap and year rollover without long timers', () => {
    const with2027: Holidays = {
      holidays: { ...fixture.holidays, '01-01-2027': 'Hypothetical' },
      specialTradingDays: {},
    };
    const cal = TradingCalendar.fromHolidays(with2027, { outsideCoverage: 'closed' });
    const run = collect(
      (c) => atSessionOpen$(cal, c),
      '2026-12-24T16:00:00+05:30',
      '2027-01-05T23:00:00+05:30',
    );
    expect(run.ticks).toEqual([
      '2026-12-28T09:15',
      '2026-12-29T09:15',
      '2026-12-30T09:15',
      '2026-12-31T09:15',
      '2027-01-04T09:15',
      '2027-01-05T09:15',
    ]);
  });

  it('stays silent where the calendar has no data', () => {
    const cal = TradingCalendar.fromHolidays(fixture, { outsideCoverage: 'closed' });
    const run = collect(
      (c) => atSessionOpen$(cal, c),
      '2026-12-31T16:00:00+05:30',
      '2027-01-10T00:00:00+05:30',
    );
    expect(run.ticks).toEqual([]);
  });

  it('follows a calendar stream and does not fire an instant twice', () => {
    const clock = new VirtualClock(ms('2026-11-20T09:00:00+05:30'));
    const plain = TradingCalendar.fromHolidays({ holidays: {}, specialTradingDays: {} });
    const withEvening = TradingCalendar.fromHolidays({
      holidays: {},
      specialTradingDays: { '20-11-2026': ['18:00-19:00'] },
    });
    const calendars = new BehaviorSubject(plain);
    const ticks: string[] = [];
    const sub = atSessionOpen$(calendars, clock).subscribe((t) =>
      ticks.push(toIstIso(t.at).slice(11, 16)),
    );
    clock.advanceTo(ms('2026-11-20T09:15:00+05:30'));
    calendars.next(plain); // refresh at the very instant of the tick
    clock.advanceTo(ms('2026-11-20T12:00:00+05:30'));
    calendars.next(withEvening);
    clock.advanceTo(ms('2026-11-20T20:00:00+05:30'));
    expect(ticks).toEqual(['09:15', '18:00']);
    sub.unsubscribe();
    expect(clock.pending).toBe(0);
  });

  it('rejects nonsensical arguments', () => {
    const clock = new VirtualClock(0);
    expect(() => beforeClose$(calendar, clock, 0)).toThrow(RangeError);
    expect(() => everyWhileOpen$(calendar, clock, 0)).toThrow(RangeError);
    expect(() => atTimeIst$(calendar, clock, '9:15')).toThrow(/HH:MM/);
  });
});

describe('calendar schedules in marble tests', () => {
  it('atSessionOpen$ and beforeClose$ on a TestScheduler clock', () => {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    scheduler.run(({ expectObservable }) => {
      const clock = schedulerClock(scheduler, ms('2026-11-20T09:00:00+05:30'));
      const open = ms('2026-11-20T09:15:00+05:30');
      const close = ms('2026-11-20T15:30:00+05:30');
      const session = { start: open, end: close, kind: 'regular' };
      expectObservable(atSessionOpen$(calendar, clock).pipe(take(1))).toBe('15m (a|)', {
        a: { at: open, session, exchange: 'NSE' },
      });
      expectObservable(beforeClose$(calendar, clock, 10, 'NFO').pipe(take(1))).toBe('380m (a|)', {
        a: { at: close - 600_000, session, exchange: 'NFO' },
      });
    });
  });
});
