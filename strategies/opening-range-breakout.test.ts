import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTestContext, type OrderIntent, TradingCalendar } from '../src/index.ts';
import strategy from './opening-range-breakout.ts';

const calendar = TradingCalendar.fromHolidays(
  JSON.parse(readFileSync('test/fixtures/holidays-2026.json', 'utf8')),
);
const at = (time: string) => Date.parse(`2026-11-20T${time}:00+05:30`);

function run(prices: Array<[string, number]>) {
  const params = strategy.params.parse({ rangeMinutes: 15, quantity: 4, squareOffMinutes: 15 });
  const t = createTestContext({ strategyId: 'orb', params, calendar, start: at('09:00') });
  const intents: OrderIntent[] = [];
  strategy.setup(t.ctx).subscribe((i) => intents.push(i));
  for (const [time, rupees] of prices) {
    t.clock.advanceTo(at(time));
    t.pushQuote({ token: 3045, ltp: rupees * 100, close: 80_000 }, 'ltp');
  }
  return { t, intents };
}

describe('opening-range-breakout', () => {
  it('buys once on a break above the range and squares off before the close', () => {
    const { t, intents } = run([
      ['09:16', 800],
      ['09:20', 805],
      ['09:25', 798],
      ['09:35', 804],
      ['09:40', 806],
      ['09:45', 810],
    ]);
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({ kind: 'place', side: 'B', quantity: 4, orderType: 'MKT' });
    t.clock.advanceTo(at('15:16'));
    expect(intents[1]).toMatchObject({ kind: 'squareOff', token: 3045 });
  });

  it('sells on a break below, and does nothing inside the range', () => {
    const { intents } = run([
      ['09:16', 800],
      ['09:29', 790],
      ['09:40', 795],
      ['09:50', 789.5],
    ]);
    expect(intents.map((i) => i.kind === 'place' && i.side)).toEqual(['S']);
  });

  it('ignores a cached price from before the open', () => {
    const { intents } = run([
      ['09:05', 700],
      ['09:16', 800],
      ['09:40', 750],
    ]);
    expect(intents.map((i) => i.kind === 'place' && i.side)).toEqual(['S']);
  });
});
