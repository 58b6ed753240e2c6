import { readFileSync } from 'node:fs';
import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Holidays } from '../api/schemas/utilities.ts';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { toIstIso } from '../domain/ist.ts';
import { ALWAYS_OPEN, type MarketSessions } from '../domain/market-sessions.ts';
import { sessionTicks$ } from './session-ticks.ts';

const fixture = JSON.parse(
  readFileSync(new URL('../../test/fixtures/holidays-2026.json', import.meta.url), 'utf8'),
) as Holidays;
const calendar = TradingCalendar.fromHolidays(fixture);
const ms = (iso: string): number => Date.parse(iso);
const ist = (at: number): string => toIstIso(at).slice(0, 19);

/** Ticks (IST, to the second) from `start` to `end` on a virtual clock. */
function ticks(
  start: string,
  end: string,
  sessions: () => MarketSessions | undefined,
  periodMs = 5_000,
): { at: string[]; fired: number } {
  const clock = new VirtualClock(ms(start));
  const at: string[] = [];
  const sub = sessionTicks$({ clock, periodMs, sessions }).subscribe((t) => {
    expect(clock.now()).toBe(t);
    at.push(ist(t));
  });
  clock.advanceTo(ms(end));
  sub.unsubscribe();
  expect(clock.pending).toBe(0);
  return { at, fired: clock.fired };
}

describe('sessionTicks$: a periodic tick while the market is open', () => {
  it('ticks on its grid in session, once after the close, after each midnight, and again from the open', () => {
    // Friday 20 November 2026 from 15:29:52 IST to Monday the 23rd 09:15:10.
    const { at, fired } = ticks(
      '2026-11-20T15:29:52+05:30',
      '2026-11-23T09:15:10+05:30',
      () => calendar,
    );
    expect(at).toEqual([
      '2026-11-20T15:29:57', // in session
      '2026-11-20T15:30:02', // the first after the close (15:30)
      '2026-11-21T00:00:02', // Saturday's first look
      '2026-11-22T00:00:02', // Sunday's
      '2026-11-23T00:00:02', // Monday's
      '2026-11-23T09:15:02', // the first after the open, on the same grid
      '2026-11-23T09:15:07',
    ]);
    // The 2.5 days between cost a wake-up an hour at most, not a timer each 5 s.
    expect(fired).toBeLessThan(at.length + 70);
  });

  it('keeps the grid of a plain interval while the session lasts', () => {
    const { at } = ticks('2026-11-20T10:00:01+05:30', '2026-11-20T10:00:31+05:30', () => calendar);
    expect(at).toEqual([
      '2026-11-20T10:00:06',
      '2026-11-20T10:00:11',
      '2026-11-20T10:00:16',
      '2026-11-20T10:00:21',
      '2026-11-20T10:00:26',
      '2026-11-20T10:00:31',
    ]);
  });

  it('ticks all the time while there is no calendar', () => {
    const { at } = ticks('2026-11-21T03:00:00+05:30', '2026-11-21T03:00:20+05:30', () => undefined);
    expect(at).toHaveLength(4);
  });

  it('plans a sleep again when the sessions change (a session added on a closed day)', () => {
    const clock = new VirtualClock(ms('2026-11-21T10:00:00+05:30')); // Saturday
    let sessions: MarketSessions = calendar;
    const changed$ = new Subject<void>();
    const at: string[] = [];
    const sub = sessionTicks$({
      clock,
      periodMs: 5_000,
      sessions: () => sessions,
      changed$,
    }).subscribe((t) => at.push(ist(t)));
    clock.advanceTo(ms('2026-11-21T10:30:00+05:30'));
    expect(at).toEqual([]);
    sessions = ALWAYS_OPEN;
    changed$.next();
    clock.advanceTo(ms('2026-11-21T10:30:10+05:30'));
    expect(at).toEqual(['2026-11-21T10:30:05', '2026-11-21T10:30:10']);
    sub.unsubscribe();
  });
});
