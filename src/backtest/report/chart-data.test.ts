import { describe, expect, it } from 'vitest';
import type { BacktestResult } from '../run-backtest.ts';
import { analyze } from './analysis.ts';
import { chartData } from './chart-data.ts';
import { IST_SECONDS } from './format.ts';
import { MARKER_COLORS } from './trade-markers.ts';

const T0 = Date.parse('2026-11-20T09:15:00+05:30');
const MIN = 60_000;
const minutes = (n: number) => Array.from({ length: n }, (_, i) => T0 + i * MIN);

/** Two instruments, a plotted SMA (paise, near SBIN's price), an RSI per symbol, two fills. */
function result(): BacktestResult {
  const bars = (token: number, symbol: string, price: number) => ({
    token,
    symbol,
    start: minutes(10),
    open: minutes(10).map(() => price),
    high: minutes(10).map(() => price + 100),
    low: minutes(10).map(() => price - 100),
    close: minutes(10).map(() => price),
  });
  const fill = (at: number, side: 'B' | 'S', intentId: string) => ({
    at,
    side,
    intentId,
    strategyId: 'sma',
    token: 3045,
    symbol: 'SBIN-EQ',
    quantity: 10,
    price: 80_000,
  });
  return {
    summary: { capital: 100_000_000, startMs: T0, endMs: T0 + 10 * MIN },
    prices: [bars(3045, 'SBIN-EQ', 80_000), bars(2885, 'RELIANCE-EQ', 140_000)],
    benchmarkToken: 3045,
    // 30 s into a minute: the marker sits on that minute's bar.
    fills: [fill(T0 + 2 * MIN + 30_000, 'B', 'b1'), fill(T0 + 5 * MIN + 250, 'S', 'b1/sl')],
    trades: [
      {
        strategyId: 'sma',
        token: 3045,
        symbol: 'SBIN-EQ',
        direction: 'long',
        openedAt: T0 + 2 * MIN + 30_000,
        closedAt: T0 + 5 * MIN + 250,
        quantity: 10,
        entryPrice: 80_000,
        exitPrice: 80_000,
        gross: 0,
        costs: 0,
        net: 0,
      },
    ],
    intents: [],
    plots: [
      ...minutes(10).map((at) => ({ strategyId: 'sma', name: 'fast', at, value: 80_050 })),
      ...minutes(10).map((at) => ({ strategyId: 'sma', name: 'rsi:SBIN-EQ', at, value: 55 })),
      ...minutes(10).map((at) => ({ strategyId: 'sma', name: 'rsi:RELIANCE-EQ', at, value: 45 })),
    ],
    equity: [
      { at: T0, equity: 100_000_000, drawdown: 0, exposure: 0, open: true },
      { at: T0 + MIN, equity: 99_000_000, drawdown: 1_000_000, exposure: 0, open: true },
      // A night: the first closed sample stays, the rest go.
      { at: T0 + 7 * 60 * MIN, equity: 99_000_000, drawdown: 1_000_000, exposure: 0, open: false },
      { at: T0 + 8 * 60 * MIN, equity: 99_000_000, drawdown: 1_000_000, exposure: 0, open: false },
      { at: T0 + 24 * 60 * MIN, equity: 99_500_000, drawdown: 500_000, exposure: 0, open: true },
    ],
  } as unknown as BacktestResult;
}

describe('chartData', () => {
  it('charts traded instruments only, with a marker per trade entry and exit on its bar and plots where they belong', () => {
    const r = result();
    const data = chartData(r, analyze(r));
    // RELIANCE was sampled but not traded.
    expect(data.instruments.map((i) => i.symbol)).toEqual(['SBIN-EQ']);
    const [sbin] = data.instruments;
    expect(sbin?.bars[0]).toEqual({
      time: T0 / 1_000 + IST_SECONDS,
      open: 800,
      high: 801,
      low: 799,
      close: 800,
    });
    // One marker per trade entry and exit, coloured apart from the candles and each other.
    expect(sbin?.markers.map((m) => [m.time, m.shape, m.price, m.color, m.text])).toEqual([
      [(T0 + 2 * MIN) / 1_000 + IST_SECONDS, 'arrowUp', 800, MARKER_COLORS.longEntry, 'Long 10'],
      [
        (T0 + 5 * MIN) / 1_000 + IST_SECONDS,
        'arrowDown',
        800,
        MARKER_COLORS.longExit,
        'Exit 10 · stop',
      ],
    ]);
    expect(data.resolution.label).toBe('1m');
    // The SMA sits in the price range: over the candles, in rupees. The RSI naming SBIN
    // goes in a pane as given; the one naming RELIANCE is not SBIN's.
    expect(sbin?.plots.map((p) => [p.name, p.overlay, p.points[0]?.value])).toEqual([
      ['sma.fast', true, 800.5],
      ['sma.rsi:SBIN-EQ', false, 55],
    ]);
  });

  it('gives drawdown as a negative % below the peak, the benchmark in the same capital, and skips nights', () => {
    const r = result();
    const data = chartData(r, analyze(r));
    expect(data.equity.map((p) => [p.e, p.d, p.b])).toEqual([
      [1_000_000, 0, 1_000_000],
      [990_000, -1, 1_000_000],
      [990_000, -1, 1_000_000],
      [995_000, -0.5, 1_000_000],
    ]);
    expect(data.benchmark).toBe('SBIN-EQ');
  });

  it('draws a run of many sessions in coarser bars, keeping the deepest drawdown in each bar', () => {
    const r = result();
    const DAY = 86_400_000;
    // 60 sessions of 375 minutes: 22,500 1-minute bars, 1,500 at 15 minutes.
    const equity: BacktestResult['equity'][number][] = [];
    for (let d = 0; d < 60; d++) {
      for (let m = 0; m < 375; m++) {
        const deep = d === 30 && m === 7; // one minute 2% down, inside a 15-minute bar
        equity.push({
          at: T0 + d * DAY + m * MIN,
          equity: deep ? 98_000_000 : 100_000_000,
          drawdown: deep ? 2_000_000 : 0,
          exposure: 0,
          open: true,
        });
      }
    }
    const long = {
      ...r,
      equity,
      prices: [
        {
          ...r.prices[0],
          start: equity.map((p) => p.at),
          open: equity.map(() => 80_000),
          high: equity.map(() => 80_100),
          low: equity.map(() => 79_900),
          close: equity.map(() => 80_000),
        },
      ],
    } as BacktestResult;
    const data = chartData(long, analyze(long));
    expect(data.resolution.label).toBe('15m');
    expect(data.equity.length).toBe(60 * 25);
    expect(Math.min(...data.equity.map((p) => p.d))).toBe(-2);
    expect(data.instruments[0]?.bars.length).toBe(60 * 25);
    // Bars start at 09:15 IST, every 15 minutes; the markers sit on them.
    expect(data.equity[1]?.time).toBe((T0 + 15 * MIN) / 1_000 + IST_SECONDS);
    const times = new Set(data.instruments[0]?.bars.map((b) => b.time));
    expect(data.instruments[0]?.markers.every((m) => times.has(m.time))).toBe(true);
  });
});
