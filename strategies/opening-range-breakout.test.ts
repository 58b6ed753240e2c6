import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTestContext, type OrderIntent, TradingCalendar } from '../src/index.ts';
import strategy from './opening-range-breakout.ts';

const calendar = TradingCalendar.fromHolidays(
  JSON.parse(readFileSync('test/fixtures/holidays-2026.json', 'utf8')),
);
const at = (time: string, day = 20) => Date.parse(`2026-11-${day}T${time}:00+05:30`);
const SBIN = { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ', lotSize: 1, tickSize: 5 } as const;

/** Trades at the given IST times (rupees); each minute's candle closes a minute on. */
async function run(trades: Array<[string, number, number?]>) {
  const params = strategy.params.parse({ rangeMinutes: 15, quantity: 4, stopPoints: 400 });
  const t = createTestContext({
    strategyId: 'orb',
    params,
    calendar,
    start: at('09:00'),
    instruments: [SBIN],
  });
  const intents: OrderIntent[] = [];
  strategy.setup(t.ctx).subscribe((i) => intents.push(i));
  let volume = 0;
  for (const [time, rupees, day] of trades) {
    await t.clock.advanceToAsync(at(time, day));
    const p = rupees * 100;
    volume += 10;
    t.pushQuote({ token: 3045, open: p, high: p, low: p, close: p, ltp: p, ltt: 0, oi: 0, volume });
  }
  await t.clock.advanceByAsync(60_000);
  return intents;
}

describe('opening-range-breakout', () => {
  it('enters once on a close above the range, as a bracket with a trailing stop', async () => {
    const intents = await run([
      ['09:16', 800],
      ['09:20', 805],
      ['09:25', 798],
      ['09:35', 804],
      ['09:40', 806],
      ['09:45', 810],
    ]);
    expect(intents).toEqual([
      expect.objectContaining({
        kind: 'bracket',
        side: 'B',
        quantity: 4,
        product: 'I',
        entry: { orderType: 'MKT' },
        stopLoss: { points: 400 },
        trailing: { points: 400 },
        instrument: SBIN,
      }),
    ]);
  });

  it('sells on a close below, does nothing inside the range, and trades again the next session', async () => {
    const intents = await run([
      ['09:16', 800],
      ['09:29', 790],
      ['09:40', 795],
      ['09:50', 789.5],
      ['10:10', 780],
      ['09:16', 800, 23],
      ['09:40', 820, 23],
    ]);
    expect(intents.map((i) => i.kind === 'bracket' && i.side)).toEqual(['S', 'B']);
  });

  it('does not trade a session whose range it did not see', async () => {
    const intents = await run([
      ['09:05', 700],
      ['09:40', 750],
      ['09:45', 850],
    ]);
    expect(intents).toEqual([]);
  });
});
