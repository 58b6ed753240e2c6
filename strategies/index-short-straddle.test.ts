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

async function enter() {
  const params = strategy.params.parse({ exitDelta: 0.3, stopLossPercent: 30, lots: 2 });
  const t = createTestContext({
    strategyId: 'straddle',
    params,
    calendar,
    start: at('09:15:00'),
    optionChains: chainSource,
  });
  const intents: OrderIntent[] = [];
  strategy.setup(t.ctx).subscribe((i) => intents.push(i));
  t.pushQuote({ token: 26000, ltp: 2_603_000, close: 2_590_000 }, 'ltp');
  t.pushQuote({ token: 40002, ltp: 12_000, close: 11_000 }, 'ltp');
  t.pushQuote({ token: 40012, ltp: 9_500, close: 9_000 }, 'ltp');
  await t.clock.advanceToAsync(at('09:20:00'));
  for (let i = 0; i < 5; i++) await flush();
  return { t, intents };
}

describe('index-short-straddle', () => {
  it('sells the ATM call and put of the nearest expiry as cover orders with stops', async () => {
    const { intents } = await enter();
    expect(intents).toHaveLength(2);
    expect(
      intents.map(
        (i) =>
          i.kind === 'place' && [
            i.instrument.token,
            i.side,
            i.quantity,
            i.variety,
            i.bookLossPrice,
          ],
      ),
    ).toEqual([
      [40002, 'S', 150, 'cover', 15_600],
      [40012, 'S', 150, 'cover', 12_350],
    ]);
  });

  it('exits when the net delta drifts past the threshold, once', async () => {
    const { t, intents } = await enter();
    t.clock.advanceBy(15_000);
    t.pushGreeks(40002, { iv: 0.14, delta: 0.2, gamma: 0.001, theta: -10, vega: 8 });
    t.pushGreeks(40012, { iv: 0.14, delta: -0.25, gamma: 0.001, theta: -10, vega: 8 });
    expect(intents).toHaveLength(2);
    t.clock.advanceBy(15_000);
    t.pushGreeks(40002, { iv: 0.16, delta: 0.75, gamma: 0.001, theta: -10, vega: 8 });
    t.pushGreeks(40012, { iv: 0.16, delta: -0.15, gamma: 0.001, theta: -10, vega: 8 });
    expect(intents.at(-1)).toMatchObject({ kind: 'squareOff' });
    t.clock.advanceTo(at('15:20:00'));
    expect(intents.filter((i) => i.kind === 'squareOff')).toHaveLength(1);
  });

  it('squares off before the close when still short', async () => {
    const { t, intents } = await enter();
    t.clock.advanceTo(at('15:16:00'));
    expect(intents.at(-1)).toMatchObject({ kind: 'squareOff', reason: 'end of day' });
  });
});
