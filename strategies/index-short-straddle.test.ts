import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createTestContext,
  type OptionChainEntry,
  type OrderIntent,
  TradingCalendar,
} from '../src/index.ts';
import strategy from './index-short-straddle.ts';

const calendar = TradingCalendar.fromHolidays(
  JSON.parse(readFileSync('test/fixtures/holidays-2026.json', 'utf8')),
);
const at = (time: string) => Date.parse(`2026-11-20T${time}+05:30`);

const entry = (type: 'CE' | 'PE', strike: number, token: number): OptionChainEntry => ({
  exchange: 'NFO',
  symbol: `NIFTY26NOV${strike}${type}`,
  token: String(token),
  optionType: type,
  strikePrice: `${strike}.00`,
  pricePrecision: '2',
  tickSize: '0.05',
  lotSize: '75',
});
const chainSource = {
  optionChainSymbols: async () => ({ NIFTY: ['26-NOV-2026', '31-DEC-2026'] }),
  optionChain: async () => [
    entry('CE', 25900, 40001),
    entry('CE', 26000, 40002),
    entry('CE', 26100, 40003),
    entry('PE', 25900, 40011),
    entry('PE', 26000, 40012),
    entry('PE', 26100, 40013),
  ],
};
const flush = () => new Promise((resolve) => setImmediate(resolve));
/** The legs as the instrument master lists them (tick 5 paise, lot 75). */
const legs = [40002, 40012].map((token) => ({
  exchange: 'NFO' as const,
  token,
  symbol: `NIFTY26NOV26000${token === 40002 ? 'CE' : 'PE'}`,
  lotSize: 75,
  tickSize: 5,
}));
const short = (token: number) => ({
  strategyId: 'straddle',
  token,
  symbol: '',
  netQuantity: -150,
  averagePrice: 10_000,
  realised: 0,
  unrealised: 0,
  lastPrice: 10_000,
});

async function enter() {
  const params = strategy.params.parse({ exitDelta: 0.3, stopLossPercent: 30, lots: 2 });
  const t = createTestContext({
    strategyId: 'straddle',
    params,
    calendar,
    start: at('09:15:00'),
    optionChains: chainSource,
    instruments: legs,
  });
  const intents: OrderIntent[] = [];
  strategy.setup(t.ctx).subscribe((i) => intents.push(i));
  t.pushQuote({ token: 26000, ltp: 2_603_000, close: 2_590_000 }, 'ltp');
  t.pushQuote({ token: 40002, ltp: 12_010, close: 11_000 }, 'ltp');
  t.pushQuote({ token: 40012, ltp: 9_500, close: 9_000 }, 'ltp');
  await t.clock.advanceToAsync(at('09:20:00'));
  for (let i = 0; i < 5; i++) await flush();
  return { t, intents };
}

const greeks = (delta: number) => ({ iv: 0.14, delta, gamma: 0.001, theta: -10, vega: 8 });

describe('index-short-straddle', () => {
  it('sells the ATM call and put of the nearest expiry, each a bracket with a stop', async () => {
    const { intents } = await enter();
    expect(
      intents.map(
        (i) =>
          i.kind === 'bracket' && [i.instrument.token, i.side, i.quantity, i.entry, i.stopLoss],
      ),
    ).toEqual([
      // 30% of 120.10 is 36.03, up to the 5-paise tick of the master.
      [40002, 'S', 150, { orderType: 'MKT' }, { points: 3_605 }],
      [40012, 'S', 150, { orderType: 'MKT' }, { points: 2_850 }],
    ]);
  });

  it('exits when the net delta of the open legs drifts past the threshold', async () => {
    const { t, intents } = await enter();
    t.setPositions([short(40002), short(40012)]);
    t.clock.advanceBy(15_000);
    t.pushGreeks(40002, greeks(0.2));
    t.pushGreeks(40012, greeks(-0.25));
    expect(intents).toHaveLength(2);
    t.clock.advanceBy(15_000);
    t.pushGreeks(40002, greeks(0.75));
    t.pushGreeks(40012, greeks(-0.15));
    expect(intents.at(-1)).toMatchObject({
      kind: 'squareOff',
      reason: 'net delta 0.60 beyond 0.3',
    });
  });

  it('reads the positions, not a flag: flat legs (stopped out or squared off) are left alone', async () => {
    const { t, intents } = await enter();
    t.clock.advanceBy(15_000);
    t.pushGreeks(40002, greeks(0.75));
    t.pushGreeks(40012, greeks(-0.15));
    t.clock.advanceBy(15_000);
    expect(intents).toHaveLength(2);
  });
});
