import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Holidays } from '../../api/schemas/utilities.ts';
import { TradingCalendar } from '../../calendar/trading-calendar.ts';
import { CandleTape } from './candle-tape.ts';

const fixture = JSON.parse(
  readFileSync(new URL('../../../test/fixtures/holidays-2026.json', import.meta.url), 'utf8'),
) as Holidays;
const OPEN = Date.parse('2026-11-20T09:15:00+05:30');
const MIN = 60_000;

describe('CandleTape', () => {
  it('serves the open interest of each candle at its last step, 0 for what has none', () => {
    const tape = new CandleTape(TradingCalendar.fromHolidays(fixture));
    tape.onStep(OPEN + 1_000, 7, { ltp: 100, volume: 10, oi: 5_000 });
    tape.onStep(OPEN + 30_000, 7, { ltp: 105, volume: 15, oi: 5_250 });
    tape.onStep(OPEN + MIN + 1_000, 7, { ltp: 104, volume: 18, oi: 5_500 });
    tape.onStep(OPEN + 1_000, 3045, { ltp: 80_000, volume: 10 });
    expect(tape.candles(7, '1m', OPEN, OPEN + MIN)).toEqual([
      [OPEN, 100, 105, 100, 105, 15, 5_250],
      [OPEN + MIN, 104, 104, 104, 104, 3, 5_500],
    ]);
    expect(tape.candles(7, '5m', OPEN, OPEN)).toEqual([[OPEN, 100, 105, 100, 104, 18, 5_500]]);
    expect(tape.candles(3045, '1m', OPEN, OPEN)).toEqual([
      [OPEN, 80_000, 80_000, 80_000, 80_000, 10, 0],
    ]);
  });
});
