import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import { createTestContext } from './testing/create-test-context.ts';

const calendar = TradingCalendar.fromHolidays(
  JSON.parse(readFileSync('test/fixtures/holidays-2026.json', 'utf8')),
);
const OPEN = Date.parse('2026-11-20T09:15:00+05:30');

describe('ctx.plot', () => {
  it('records name, value and the clock time of each finite value, in order', () => {
    const t = createTestContext({ strategyId: 'sma', params: {}, calendar, start: OPEN });
    t.ctx.plot('fast', 80_010.5);
    t.clock.advanceBy(60_000);
    t.ctx.plot('slow', 79_990);
    t.ctx.plot('slow', Number.NaN);
    t.ctx.plot('slow', Number.POSITIVE_INFINITY);
    expect(t.plots).toEqual([
      { strategyId: 'sma', name: 'fast', at: OPEN, value: 80_010.5 },
      { strategyId: 'sma', name: 'slow', at: OPEN + 60_000, value: 79_990 },
    ]);
  });
});
