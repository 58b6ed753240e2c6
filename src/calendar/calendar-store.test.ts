import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Holidays } from '../api/schemas/utilities.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { NoCalendarError } from './calendar-errors.ts';
import { CalendarStore } from './calendar-store.ts';
import { mergeHolidays } from './merge-holidays.ts';
import type { TradingCalendar } from './trading-calendar.ts';

const y2026: Holidays = {
  holidays: { '25-12-2026': 'Christmas', '10-11-2026': 'Diwali-Balipratipada' },
  specialTradingDays: { '08-11-2026': ['18:00-19:00'] },
};
const y2027: Holidays = {
  holidays: { '26-01-2027': 'Republic Day' },
  specialTradingDays: {},
};
const ms = (iso: string): number => Date.parse(iso);

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiqs-calendar-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function down(): Promise<Holidays> {
  return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:443'));
}

describe('CalendarStore', () => {
  it('fetches, saves the copy on disk, and serves the calendar', async () => {
    const path = join(dir, 'sub', 'holidays.json');
    const clock = new VirtualClock(ms('2026-11-20T08:00:00+05:30'));
    const store = new CalendarStore({ clock, fetchHolidays: async () => y2026, path });
    const seen: TradingCalendar[] = [];
    store.calendar$.subscribe((c) => seen.push(c));
    const status = await store.start();
    expect(status).toMatchObject({ state: 'ready', source: 'service', years: [2026] });
    expect(seen).toHaveLength(1);
    expect(store.require().isOpen(ms('2026-11-20T10:00:00+05:30'))).toBe(true);
    const saved = JSON.parse(await readFile(path, 'utf8'));
    expect(saved).toMatchObject({ format: 'tiqs-runner/holidays@1', data: y2026 });
    expect(saved.fetchedAt).toBe('2026-11-20T08:00:00.000+05:30');
    store.stop();
  });

  it('restarted on a holiday morning with the service down, still knows the calendar', async () => {
    const path = join(dir, 'holidays.json');
    const first = new CalendarStore({
      clock: new VirtualClock(ms('2026-12-20T08:00:00+05:30')),
      fetchHolidays: async () => y2026,
      path,
    });
    await first.start();
    first.stop();

    const clock = new VirtualClock(ms('2026-12-25T08:30:00+05:30'));
    const store = new CalendarStore({ clock, fetchHolidays: down, path });
    const status = await store.start();
    expect(status).toMatchObject({
      state: 'ready',
      source: 'disk',
      lastError: 'connect ECONNREFUSED 127.0.0.1:443',
    });
    const calendar = store.require();
    expect(calendar.isTradingDay(clock.now())).toBe(false);
    expect(calendar.isOpen(ms('2026-12-25T10:00:00+05:30'))).toBe(false);
    expect(calendar.nextOpen(clock.now())).toBe(ms('2026-12-28T09:15:00+05:30'));
    store.stop();
  });

  it.each([
    {
      what: 'no stored copy',
      setup: async (_path: string) => {},
      reason:
        /^no calendar: service unreachable \(connect ECONNREFUSED 127\.0\.0\.1:443\) and no stored copy at .*holidays\.json$/,
    },
    {
      what: 'a corrupt stored copy',
      setup: (path: string) => writeFile(path, '{"format":', 'utf8'),
      reason: /service unreachable .* and stored copy at .*holidays\.json is invalid/,
    },
  ])('with no calendar at all ($what), refuses and says why', async ({ setup, reason }) => {
    const path = join(dir, 'holidays.json');
    await setup(path);
    const store = new CalendarStore({
      clock: new VirtualClock(ms('2026-11-20T08:00:00+05:30')),
      fetchHolidays: down,
      path,
    });
    const status = await store.start();
    expect(status.state).toBe('unavailable');
    expect(status.state === 'unavailable' && status.reason).toMatch(reason);
    expect(store.calendar).toBeUndefined();
    expect(() => store.require()).toThrow(NoCalendarError);
    expect(() => store.require()).toThrow(reason);
    store.stop();
  });

  it('retries a failed fetch on the clock, backing off, then recovers', async () => {
    const path = join(dir, 'holidays.json');
    const clock = new VirtualClock(ms('2026-11-20T08:30:00+05:30'));
    let calls = 0;
    const store = new CalendarStore({
      clock,
      path,
      retryDelayMs: 60_000,
      fetchHolidays: () => (++calls < 3 ? down() : Promise.resolve(y2026)),
    });
    expect((await store.start()).state).toBe('unavailable');
    await clock.advanceByAsync(60_000);
    await store.settled();
    expect(calls).toBe(2);
    // The second wait doubles.
    await clock.advanceByAsync(119_999);
    expect(calls).toBe(2);
    await clock.advanceByAsync(1);
    await store.settled();
    expect(calls).toBe(3);
    expect(store.status()).toMatchObject({ state: 'ready', source: 'service' });
    await clock.advanceByAsync(60 * 60_000);
    expect(calls).toBe(3);
    store.stop();
    expect(clock.pending).toBe(0);
  });

  it('refetches daily and at the IST year change, keeping the previous year', async () => {
    const path = join(dir, 'holidays.json');
    const clock = new VirtualClock(ms('2026-12-31T20:00:00+05:30'));
    const fetches: string[] = [];
    const store = new CalendarStore({
      clock,
      path,
      retryDelayMs: 10 * 60_000,
      fetchHolidays: async () => {
        fetches.push(new Date(clock.now()).toISOString());
        // The service flips to the new year's list a few minutes after midnight.
        return clock.now() >= ms('2027-01-01T00:05:00+05:30') ? y2027 : y2026;
      },
    });
    await store.start();
    expect(store.require().years).toEqual([2026]);

    // Just past midnight IST (18:30Z): 2027 is not covered yet, so trading is refused.
    await clock.advanceToAsync(ms('2027-01-01T00:00:30+05:30'));
    expect(() => store.require()).toThrow(/no calendar for 2027: holiday data covers 2026/);

    // 00:01 refresh still gets 2026 (stale), retries 10 minutes later and gets 2027.
    await clock.advanceToAsync(ms('2027-01-01T00:01:00+05:30'));
    await store.settled();
    expect(store.status()).toMatchObject({
      lastError: 'service returned no data for the current year (has 2026)',
    });
    await clock.advanceToAsync(ms('2027-01-01T00:11:00+05:30'));
    await store.settled();
    const calendar = store.require();
    expect(calendar.years).toEqual([2026, 2027]);
    expect(calendar.isTradingDay('2026-12-25')).toBe(false);
    expect(calendar.isTradingDay('2027-01-26')).toBe(false);
    expect(store.status()).not.toHaveProperty('lastError');
    const saved = JSON.parse(await readFile(path, 'utf8'));
    expect(Object.keys(saved.data.holidays)).toEqual(['10-11-2026', '25-12-2026', '26-01-2027']);

    // Daily refresh at 08:00 IST.
    await clock.advanceToAsync(ms('2027-01-01T08:00:00+05:30'));
    await store.settled();
    expect(fetches).toEqual([
      '2026-12-31T14:30:00.000Z',
      '2026-12-31T18:31:00.000Z',
      '2026-12-31T18:41:00.000Z',
      '2027-01-01T02:30:00.000Z',
    ]);
    store.stop();
  });

  it('keeps the last good copy when the service sends unusable data', async () => {
    const path = join(dir, 'holidays.json');
    let bad = false;
    const clock = new VirtualClock(ms('2026-11-20T08:30:00+05:30'));
    const store = new CalendarStore({
      clock,
      path,
      fetchHolidays: async () =>
        bad ? { holidays: {}, specialTradingDays: { '01-02-2026': ['15:30-09:15'] } } : y2026,
    });
    await store.start();
    bad = true;
    const status = await store.refresh();
    expect(status).toMatchObject({ state: 'ready', years: [2026] });
    expect(status.state === 'ready' && status.lastError).toMatch(/does not end after it starts/);
    expect(store.require().isTradingDay('2026-11-08')).toBe(true);
    store.stop();
  });
});

describe('mergeHolidays', () => {
  it.each([
    {
      what: 'keeps other years, adds the new one',
      older: y2026,
      fresher: y2027,
      holidays: ['10-11-2026', '25-12-2026', '26-01-2027'],
    },
    {
      what: 'replaces a year entirely (withdrawn holiday disappears)',
      older: y2026,
      fresher: { holidays: { '25-12-2026': 'Christmas' }, specialTradingDays: {} },
      holidays: ['25-12-2026'],
    },
  ])('$what', ({ older, fresher, holidays }) => {
    expect(Object.keys(mergeHolidays(older, fresher).holidays)).toEqual(holidays);
  });
});
