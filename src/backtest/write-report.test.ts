import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { NO_CHARGES } from './cost-model.ts';
import { type EquityPoint, summarize } from './metrics.ts';
import type { BacktestResult } from './run-backtest.ts';

// The page's builder fails on demand: a throw after the JSON is written, part way through
// the page (after more than a write's worth of it has gone to the file).
const failHtml = vi.hoisted(() => ({ now: false }));
vi.mock('./report-html.ts', async (original) => {
  const real = await original<typeof import('./report-html.ts')>();
  return {
    ...real,
    reportHtmlParts: function* (...args: Parameters<typeof real.reportHtmlParts>) {
      let made = 0;
      for (const part of real.reportHtmlParts(...args)) {
        if (failHtml.now && made > 100_000) throw new Error('page failed');
        made += part.length;
        yield part;
      }
    },
  };
});
const { writeReport } = await import('./write-report.ts');

/** A small result with two equity points and one price bar. */
function result(netPnl: number): BacktestResult {
  const at = 1_795_147_561_000;
  const equity: EquityPoint[] = [
    { at, equity: 100_000_000, drawdown: 0, exposure: 0, open: true },
    { at: at + 60_000, equity: 100_000_000 + netPnl, drawdown: 0, exposure: 0, open: true },
  ];
  const summary = summarize({
    startMs: at,
    endMs: at + 60_000,
    capital: 100_000_000,
    equity,
    trips: [],
    grossPnl: netPnl,
    costs: NO_CHARGES,
    fills: 0,
    orders: 0,
    intents: 0,
    intervalSeconds: 60,
    quoteEvents: 2,
  });
  return {
    name: 'sma',
    params: {},
    summary,
    intents: [],
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
        start: [at],
        open: [80_000],
        high: [80_100],
        low: [79_900],
        close: [80_050],
      },
    ],
    benchmarkToken: 3045,
    effectiveParams: {},
    specParams: {},
    dataKind: 'ticks',
    spec: { file: 'sma.yaml', text: 'backtest: {}' },
    strategies: {},
    costModel: {},
    fillModel: { latencyMs: 250, slippageTicks: 0 },
    elapsedMs: 1,
    replay: { steps: 1, records: 1, timersFired: 0 },
  } as unknown as BacktestResult;
}

describe('writeReport', () => {
  it('replaces report.json and report.html together, leaving no temporary files', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-report-'));
    const { json, html } = await writeReport(result(500), dir);
    expect(JSON.parse(readFileSync(json, 'utf8')).summary.netPnl).toBe(500);
    expect(readFileSync(html, 'utf8')).toContain('<html');
    await writeReport(result(700), dir);
    expect(JSON.parse(readFileSync(json, 'utf8')).summary.netPnl).toBe(700);
    expect(readdirSync(dir).sort()).toEqual(['report.html', 'report.json']);
  });

  it('leaves the previous report whole when the page fails after the JSON is written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-report-'));
    writeFileSync(join(dir, 'report.json'), '{"previous":true}');
    writeFileSync(join(dir, 'report.html'), '<html>previous</html>');
    failHtml.now = true;
    try {
      await expect(writeReport(result(500), dir)).rejects.toThrow('page failed');
    } finally {
      failHtml.now = false;
    }
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe('{"previous":true}');
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).toBe('<html>previous</html>');
    expect(readdirSync(dir).sort()).toEqual(['report.html', 'report.json']);
  });
});
