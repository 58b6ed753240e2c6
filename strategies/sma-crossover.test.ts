import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createTestContext,
  type Instrument,
  type OrderIntent,
  type TestContext,
  TradingCalendar,
} from '../src/index.ts';
import strategy from './sma-crossover.ts';

const calendar = TradingCalendar.fromHolidays(
  JSON.parse(readFileSync('test/fixtures/holidays-2026.json', 'utf8')),
);
/** Warm-up candles as the test context takes them. */
type History = NonNullable<Parameters<typeof createTestContext>[0]['candleHistory']>;
const OPEN = Date.parse('2026-11-20T09:15:00+05:30');
const SBIN: Instrument = {
  exchange: 'NSE',
  token: 3045,
  symbol: 'SBIN-EQ',
  lotSize: 1,
  tickSize: 5,
};

/** One traded price a minute (rupees), each closing a 1m candle. */
async function trade(t: TestContext<unknown>, rupees: number[], volume = { n: 0 }) {
  for (const r of rupees) {
    const p = r * 100;
    volume.n += 100;
    t.pushQuote({
      token: 3045,
      open: p,
      high: p,
      low: p,
      close: p,
      ltp: p,
      ltt: 0,
      oi: 0,
      volume: volume.n,
    });
    await t.clock.advanceByAsync(60_000);
  }
}

function start(overrides: object, candleHistory?: History, at = OPEN) {
  const params = strategy.params.parse({ fast: 2, slow: 4, quantity: 5, ...overrides });
  const t = createTestContext({
    strategyId: 'sma',
    params,
    calendar,
    start: at,
    instruments: [SBIN],
    ...(candleHistory === undefined ? {} : { candleHistory }),
  });
  const intents: OrderIntent[] = [];
  strategy.setup(t.ctx).subscribe((i) => intents.push(i));
  const long = (q: number) =>
    t.setPositions([
      {
        strategyId: 'sma',
        token: 3045,
        symbol: 'SBIN-EQ',
        netQuantity: q,
        averagePrice: 0,
        realised: 0,
        unrealised: 0,
        lastPrice: 0,
      },
    ]);
  return { t, intents, long };
}

const sides = (intents: OrderIntent[]) =>
  intents.map((i) => (i.kind === 'place' ? `${i.side}${i.quantity}` : i.kind));

describe('sma-crossover', () => {
  it('targets long on the golden cross and flat on the death cross, on 1m candles', async () => {
    const { t, intents, long } = start({});
    await trade(t, [1000, 990, 980, 970, 960, 980, 1010]);
    expect(sides(intents)).toEqual(['B5']);
    long(5); // filled
    await trade(t, [1050, 1090]); // still above: target already reached, nothing sent
    expect(sides(intents)).toEqual(['B5']);
    await trade(t, [1000, 940, 900]);
    expect(sides(intents)).toEqual(['B5', 'S5']);
    // Both averages are plotted on every live candle once warm, in paise.
    expect(t.plots.filter((p) => p.name === 'sma-slow').length).toBeGreaterThan(5);
    expect(t.plots.find((p) => p.name === 'sma-fast')?.value).toBeGreaterThan(90_000);
  });

  it('sends nothing on a death cross while flat (an entry refused, or squared off)', async () => {
    const { t, intents } = start({});
    await trade(t, [1000, 990, 980, 970, 960, 980, 1010]);
    expect(sides(intents)).toEqual(['B5']); // never filled: the position stays flat
    await trade(t, [1000, 940, 900]);
    expect(sides(intents)).toEqual(['B5']);
  });

  it('warms up from history: no entry at the first live candle without a cross', async () => {
    const cold = start({});
    await trade(cold.t, [1000, 1010, 1020, 1030, 1040, 1050]); // fast above slow once warm
    expect(sides(cold.intents)).toEqual(['B5']); // a cold start acts on the first warm value
    const rising = [1000, 1010, 1020, 1030, 1040].map(
      (r, i) =>
        ({
          token: 3045,
          interval: '1m',
          start: OPEN + i * 60_000,
          end: OPEN + (i + 1) * 60_000,
          open: r * 100,
          high: r * 100,
          low: r * 100,
          close: r * 100,
          volume: 100,
          historical: true,
        }) as const,
    );
    const warm = start({}, { candles: async () => rising }, OPEN + 5 * 60_000);
    await trade(warm.t, [1050, 1060, 1070, 1080]); // cold, the 4th would buy
    expect(warm.intents).toEqual([]);
  });

  it('rejects params where fast is not shorter than slow', () => {
    expect(strategy.params.safeParse({ fast: 10, slow: 5 }).success).toBe(false);
  });
});
