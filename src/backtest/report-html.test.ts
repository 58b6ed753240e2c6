import { describe, expect, it } from 'vitest';
import { NO_CHARGES } from './cost-model.ts';
import type { MissingData } from './missing-data.ts';
import { reportHtml } from './report-html.ts';
import type { BacktestResult } from './run-backtest.ts';

const T0 = Date.parse('2026-11-20T09:15:00+05:30');

function result(missingData?: MissingData): BacktestResult {
  return {
    name: 'probe',
    params: {},
    summary: {
      startMs: T0,
      endMs: T0 + 60_000,
      capital: 100_000_000,
      finalEquity: 100_000_000,
      grossPnl: 0,
      costs: NO_CHARGES,
      netPnl: 0,
      returnPercent: 0,
      maxDrawdown: 0,
      maxDrawdownPercent: 0,
      sharpe: 0,
      winRate: 0,
      profitFactor: null,
      trades: 0,
      openTrades: 0,
      fills: 0,
      orders: 0,
      intents: 0,
      exposurePercent: 0,
      maxExposure: 0,
      quoteEvents: 0,
      rejected: 0,
      denied: 0,
    },
    intents: [],
    fills: [],
    orders: [],
    trades: [],
    equity: [],
    plots: [],
    rejections: [],
    ...(missingData === undefined ? {} : { missingData }),
    strategies: {},
    costModel: {},
    fillModel: { latencyMs: 0, slippageTicks: 0 },
    elapsedMs: 0,
    replay: { steps: 0, records: 0, timersFired: 0 },
    prices: [],
    benchmarkToken: undefined,
    effectiveParams: { s: { note: '<b>' } },
    specParams: { s: {} },
    dataKind: 'ticks',
    spec: { file: 'x.yaml', text: 'a: "</script><script>alert(1)</script>"' },
  } as unknown as BacktestResult;
}

describe('reportHtml', () => {
  it('warns, before the figures, of subscribed tokens the data lacks (--allow-missing)', () => {
    const html = reportHtml(
      result({
        missing: [{ token: 1594, symbol: 'INFY-EQ', firstSubscribedAt: T0 }],
        contents: {
          kind: 'ticks',
          tokens: [{ token: 3045, symbol: 'SBIN-EQ' }],
          startMs: T0,
          endMs: T0,
          records: 1,
        },
      } as MissingData),
    );
    const at = html.indexOf('id="missing-data"');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(html.indexOf('id="summary"'));
    expect(html).toContain('INFY-EQ (1594)');
    expect(html).toContain('holds SBIN-EQ');
    expect(reportHtml(result())).not.toContain('id="missing-data"');
  });

  it('says what was replayed and how orders filled', () => {
    expect(reportHtml(result())).toMatch(/id="fill-model">Data: a tick recording/);
    const candles = { ...result(), dataKind: 'candles' } as BacktestResult;
    expect(reportHtml(candles)).toMatch(/id="fill-model">Data: candles.*touched price/);
  });

  it('shows ₹ in Indian grouping and escapes the spec and params', () => {
    const html = reportHtml(result());
    expect(html).toContain('₹10,00,000.00');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)');
    expect(html).toContain('&lt;b&gt;');
    expect(html).not.toContain('<script>alert(1)');
  });
});
