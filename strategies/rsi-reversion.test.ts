import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createTestContext, type OrderIntent, TradingCalendar } from '../src/index.ts';
import strategy from './rsi-reversion.ts';

const calendar = TradingCalendar.fromHolidays(
  JSON.parse(readFileSync('test/fixtures/holidays-2026.json', 'utf8')),
);
const OPEN = Date.parse('2026-11-20T09:15:00+05:30');
const SBIN = { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ', lotSize: 1, tickSize: 5 } as const;
const RIL = {
  exchange: 'NSE',
  token: 2885,
  symbol: 'RELIANCE-EQ',
  lotSize: 1,
  tickSize: 5,
} as const;

function start() {
  const params = strategy.params.parse({ period: 3, oversold: 30, exitAbove: 60, quantity: 7 });
  const t = createTestContext({
    strategyId: 'rsi',
    params,
    calendar,
    start: OPEN,
    instruments: [SBIN, RIL],
  });
  const intents: OrderIntent[] = [];
  strategy.setup(t.ctx).subscribe((i) => intents.push(i));
  let volume = 0;
  /** One minute: a trade of each stock (rupees), then the candles close. */
  const minute = async (sbin: number, ril: number) => {
    volume += 10;
    for (const [token, r] of [
      [3045, sbin],
      [2885, ril],
    ] as const) {
      const p = r * 100;
      t.pushQuote({ token, open: p, high: p, low: p, close: p, ltp: p, ltt: 0, oi: 0, volume });
    }
    await t.clock.advanceByAsync(60_000);
  };
  const hold = (token: number, netQuantity: number) =>
    t.setPositions([
      {
        strategyId: 'rsi',
        token,
        symbol: '',
        netQuantity,
        averagePrice: 0,
        realised: 0,
        unrealised: 0,
        lastPrice: 0,
      },
    ]);
  return { t, intents, minute, hold };
}

const what = (intents: OrderIntent[]) =>
  intents.map((i) =>
    i.kind === 'place' ? `${i.instrument.symbol} ${i.side}${i.quantity}` : i.kind,
  );

describe('rsi-reversion', () => {
  it('buys the oversold stock of two, once, and sells it when the RSI recovers', async () => {
    const { t, intents, minute, hold } = start();
    // SBIN falls every minute (RSI 0); RELIANCE rises (RSI 100, and it is flat: no sale).
    for (const [sbin, ril] of [
      [800, 1400],
      [795, 1401],
      [790, 1402],
      [785, 1403],
    ] as const)
      await minute(sbin, ril);
    expect(what(intents)).toEqual(['SBIN-EQ B7']);
    hold(3045, 7); // filled: the next oversold candle's target is already reached
    await minute(780, 1404);
    expect(what(intents)).toEqual(['SBIN-EQ B7']);
    await minute(800, 1405); // RSI back above 60
    expect(what(intents)).toEqual(['SBIN-EQ B7', 'SBIN-EQ S7']);
    hold(3045, 0); // sold
    await minute(810, 1406);
    expect(what(intents)).toEqual(['SBIN-EQ B7', 'SBIN-EQ S7']);
    const series = new Set(t.plots.map((p) => p.name));
    expect(series).toEqual(new Set(['rsi:SBIN-EQ', 'rsi:RELIANCE-EQ']));
  });

  it('refuses a symbol the instrument master does not list', () => {
    const params = strategy.params.parse({ symbols: ['NOPE-EQ'] });
    const t = createTestContext({ strategyId: 'rsi', params, calendar, start: OPEN });
    expect(() => strategy.setup(t.ctx)).toThrow(/NOPE-EQ is not in the instrument master/);
  });
});
