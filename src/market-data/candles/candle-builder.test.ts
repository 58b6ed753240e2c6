import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Holidays } from '../../api/schemas/utilities.ts';
import { TradingCalendar } from '../../calendar/trading-calendar.ts';
import { CandleBuilder } from './candle-builder.ts';

const fixture = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/holidays-2026.json', import.meta.url), 'utf8'),
) as Holidays;
const calendar = TradingCalendar.fromHolidays(fixture);
const ist = (s: string): number => Date.parse(`${s}+05:30`);
const OPEN = ist('2026-11-20T09:15:00');
const MIN = 60_000;

/** A builder started at `since`; `add(at, dayVolume)` adds a trade at price 100. */
function builder(since?: number) {
  const b = new CandleBuilder(3045, '1m', () => calendar, 'NSE', since);
  const add = (at: number, dayVolume: number) => b.add({ at, price: 100, dayVolume, oi: 0 });
  return { b, add };
}

describe('CandleBuilder: volume from the day volume', () => {
  it('takes a lower day volume as a lagging answer, not as a new count', () => {
    const T = ist('2026-11-20T11:00:00');
    const { b, add } = builder();
    add(T + 1_000, 1_000_000);
    add(T + 50_000, 1_000_100);
    b.closeAt(T + MIN);
    // 11:01: the first answer lags one share behind the last counted, then ~200 trade.
    add(T + 61_000, 1_000_099);
    add(T + 100_000, 1_000_300);
    expect(b.closeAt(T + 2 * MIN)?.volume).toBe(200);
  });

  it('keeps the highest day volume inside a candle: a dip moves nothing to the next one', () => {
    const { b, add } = builder();
    add(OPEN + 1_000, 100);
    add(OPEN + 20_000, 300);
    add(OPEN + 40_000, 250); // lagging
    expect(b.closeAt(OPEN + MIN)?.volume).toBe(300);
    add(OPEN + MIN + 1_000, 320);
    expect(b.closeAt(OPEN + 2 * MIN)?.volume).toBe(20);
  });

  it('counts the day from 0 when running at the open, even when the first trade comes late', () => {
    const { b, add } = builder(ist('2026-11-20T09:00:00'));
    // The day's first trade at 09:16:10 (pre-open volume 500 included), then 200 more.
    add(OPEN + 70_000, 500);
    add(OPEN + 80_000, 700);
    expect(b.closeAt(OPEN + 2 * MIN)?.volume).toBe(700);
  });

  it("restarts at a new IST day, and counts the next day's first candle from 0", () => {
    const { b, add } = builder();
    add(ist('2026-11-19T15:29:00'), 9_000_000);
    b.closeAt(ist('2026-11-19T15:30:00'));
    add(OPEN + 70_000, 400);
    expect(b.closeAt(OPEN + 2 * MIN)?.volume).toBe(400);
  });

  it('counts a candle joined mid-day from the day volume before its start', () => {
    const start = OPEN + 3 * MIN + 500;
    const { b, add } = builder(start);
    // The first answer after the start: the last trade at 09:17:59, day volume 500.
    expect(add(OPEN + 3 * MIN - 1_000, 500)).toBeUndefined();
    expect(b.openUntil).toBeUndefined();
    add(OPEN + 3 * MIN + 10_000, 520);
    add(OPEN + 3 * MIN + 20_000, 560);
    expect(b.closeAt(OPEN + 4 * MIN)?.volume).toBe(60);
  });
});

describe('CandleBuilder: the open slot', () => {
  it('places a tick by the calendar of its time: one that makes the open slot a holiday drops it', () => {
    let current: TradingCalendar = calendar;
    const b = new CandleBuilder(3045, '1m', () => current, 'NSE');
    b.add({ at: OPEN + 1_000, price: 100, dayVolume: 10, oi: 0 });
    b.add({ at: OPEN + 20_000, price: 101, dayVolume: 20, oi: 0 });
    // The holidays change mid-bar (a refresh): 20 November is now closed, so a trade
    // inside the open slot is outside any session and moves nothing.
    current = TradingCalendar.fromHolidays({
      ...fixture,
      holidays: { ...fixture.holidays, '20-11-2026': 'declared closed' },
    });
    b.add({ at: OPEN + 40_000, price: 150, dayVolume: 30, oi: 0 });
    const candle = b.closeAt(OPEN + MIN);
    expect([candle?.open, candle?.high, candle?.close, candle?.volume]).toEqual([
      100, 101, 101, 20,
    ]);
  });
});
