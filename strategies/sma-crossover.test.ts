import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTestContext, type OrderIntent, TradingCalendar } from '../src/index.ts';
import strategy from './sma-crossover.ts';

const calendar = TradingCalendar.fromHolidays(
  JSON.parse(readFileSync('test/fixtures/holidays-2026.json', 'utf8')),
);
const FRIDAY_OPEN = Date.parse('2026-11-20T09:15:00+05:30');

describe('sma-crossover', () => {
  it('buys on the golden cross, sells on the death cross, in virtual time', () => {
    const params = strategy.params.parse({ fast: 2, slow: 4, barSeconds: 60, quantity: 5 });
    const t = createTestContext({ strategyId: 'sma', params, calendar, start: FRIDAY_OPEN });
    const intents: OrderIntent[] = [];
    strategy.setup(t.ctx).subscribe((i) => intents.push(i));
    // Falling, then rising (golden cross), then falling (death cross); one price per bar.
    const closes = [1000, 990, 980, 970, 960, 980, 1010, 1050, 1090, 1060, 1000, 940, 900];
    for (const ltp of closes) {
      t.pushQuote({ token: 3045, ltp: ltp * 100, close: 100_000 }, 'ltp');
      t.clock.advanceBy(60_000);
    }
    const places = intents.filter((i) => i.kind === 'place');
    expect(places.map((i) => i.kind === 'place' && [i.side, i.quantity, i.orderType])).toEqual([
      ['B', 5, 'MKT'],
      ['S', 5, 'MKT'],
    ]);
    expect(new Set(intents.map((i) => i.id)).size).toBe(intents.length);
  });

  it('squares off a long position before the close', () => {
    const params = strategy.params.parse({
      fast: 2,
      slow: 3,
      barSeconds: 60,
      squareOffMinutes: 10,
    });
    const t = createTestContext({
      strategyId: 'sma',
      params,
      calendar,
      start: Date.parse('2026-11-20T15:00:00+05:30'),
    });
    const intents: OrderIntent[] = [];
    strategy.setup(t.ctx).subscribe((i) => intents.push(i));
    for (const ltp of [1000, 990, 980, 1000, 1030, 1060]) {
      t.pushQuote({ token: 3045, ltp: ltp * 100, close: 100_000 }, 'ltp');
      t.clock.advanceBy(60_000);
    }
    expect(intents.at(-1)).toMatchObject({ kind: 'place', side: 'B' });
    t.clock.advanceTo(Date.parse('2026-11-20T15:20:00+05:30'));
    expect(intents.at(-1)).toMatchObject({ kind: 'squareOff', token: 3045 });
  });

  it('does not sell a position it never got when the entry was rejected', () => {
    const params = strategy.params.parse({ fast: 2, slow: 4, barSeconds: 60, quantity: 5 });
    const t = createTestContext({ strategyId: 'sma', params, calendar, start: FRIDAY_OPEN });
    const intents: OrderIntent[] = [];
    strategy.setup(t.ctx).subscribe((i) => intents.push(i));
    const closes = [1000, 990, 980, 970, 960, 980, 1010, 1050, 1090, 1060, 1000, 940, 900];
    for (const ltp of closes) {
      t.pushQuote({ token: 3045, ltp: ltp * 100, close: 100_000 }, 'ltp');
      t.clock.advanceBy(60_000);
      const entry = intents.find((i) => i.kind === 'place' && i.side === 'B');
      if (entry !== undefined && intents.length === 1) {
        t.pushOrderEvent({
          type: 'OrderRejected',
          strategyId: 'sma',
          intentId: entry.id,
          tag: 't',
          at: t.clock.now(),
          reason: 'no margin',
        });
      }
    }
    expect(intents.map((i) => i.kind === 'place' && i.side)).toEqual(['B']);
  });

  it('rejects params where fast is not shorter than slow', () => {
    const r = strategy.params.safeParse({ fast: 10, slow: 5 });
    expect(r.success).toBe(false);
  });
});
