import { describe, expect, it } from 'vitest';
import { type EquityPoint, equityColumns } from './metrics.ts';
import { reportJson, reportJsonParts } from './report-json.ts';
import type { BacktestResult } from './run-backtest.ts';

/** A result with `n` equity points; the rest is small but of every kind. */
function result(n: number): BacktestResult {
  const equity: EquityPoint[] = Array.from({ length: n }, (_, i) => ({
    at: 1_795_147_561_000 + i * 60_000,
    equity: 100_000_000 - i * 7,
    drawdown: i * 7,
    exposure: i % 3 === 0 ? 0 : 7_986_000,
    open: i % 5 !== 0,
  }));
  return {
    name: 'sma <crossover>',
    params: { 'sma.fast': 3 },
    summary: {
      startMs: 1_795_147_561_000,
      endMs: 1_795_170_000_000,
      netPnl: -25_830,
      capital: 100_000_000,
    },
    intents: [{ kind: 'cancel', id: 'c1', strategyId: 'sma', at: 1_795_147_561_000 }],
    fills: [],
    orders: [],
    trades: [],
    equity,
    plots: [],
    rejections: [],
    prices: [
      {
        token: 3045,
        symbol: 'SBIN-EQ',
        start: [1_795_147_561_000],
        open: [80_000],
        high: [80_100],
        low: [79_900],
        close: [80_050],
      },
    ],
    benchmarkToken: 3045,
    effectiveParams: { sma: { fast: 3, slow: 8 } },
    specParams: { sma: { fast: 3 } },
    dataKind: 'ticks',
    spec: { file: 'sma.yaml', text: 'backtest: {}' },
    strategies: { sma: 'stopped' },
    costModel: {},
    fillModel: { latencyMs: 250, slippageTicks: 0 },
    elapsedMs: 12,
    replay: { steps: 1, records: 2, timersFired: 3 },
  } as unknown as BacktestResult;
}

describe('reportJson', () => {
  it.each([0, 1, 4_500])(
    'writes %i equity points in parts that join to one indented JSON text',
    (n) => {
      const r = result(n);
      const parts = [...reportJsonParts(r)];
      const text = parts.join('');
      expect(text).toBe(reportJson(r));
      // The layout is JSON.stringify's own (indent 1), whatever the parts.
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 1)}\n`);
      const report = JSON.parse(text);
      expect(report.equity).toEqual(r.equity);
      expect(report.prices).toEqual(r.prices);
      expect(report.effectiveParams).toEqual({ sma: { fast: 3, slow: 8 } });
      expect(report.spec).toEqual({ file: 'sma.yaml', text: 'backtest: {}' });
      expect(report.stats.benchmark).toMatchObject({
        token: 3045,
        symbol: 'SBIN-EQ',
        startPrice: 80_000,
        endPrice: 80_050,
      });
      expect(report.elapsedMs).toBe(12);
      expect(Object.keys(report).slice(-3)).toEqual(['prices', 'equity', 'elapsedMs']);
      // No part holds the whole curve when it is long.
      if (n > 2_000) expect(Math.max(...parts.map((p) => p.length))).toBeLessThan(text.length / 2);
    },
  );

  it('writes the curve from its columns (a backtest keeps) without asking for the points', () => {
    const r = result(4_500);
    const fromColumns = {
      ...r,
      equityCurve: equityColumns(r.equity),
      get equity(): never {
        throw new Error('the report asked for the points');
      },
    } as BacktestResult;
    expect(reportJson(fromColumns)).toBe(reportJson(r));
  });

  it('leaves out a field whose value is undefined, as JSON.stringify does', () => {
    const r = { ...result(3), spec: undefined } as unknown as BacktestResult;
    const text = reportJson(r);
    expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 1)}\n`);
    expect(Object.keys(JSON.parse(text))).not.toContain('spec');
    expect(JSON.parse(text).dataKind).toBe('ticks');
  });
});
