import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backtestSectionSchema } from '../../src/backtest/backtest-spec.ts';
import { reportJson } from '../../src/backtest/report-json.ts';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { parseConfig } from '../../src/config/load-config.ts';

const START = Date.parse('2026-11-20T09:15:00+05:30');
const END = Date.parse('2026-11-20T09:45:00+05:30');

describe('ctx.plot in a backtest', () => {
  it('records every plotted value, with strategy, name and virtual time, in report.json', async () => {
    const config = parseConfig(
      `
mode: paper
strategies:
  - id: probe
    module: ../test/fixtures/strategies/plot-probe.ts
logging: { level: silent, summaryIntervalSeconds: 0 }
`,
      'config/plots.yaml',
      {},
    );
    const result = await runBacktest({
      file: resolve('config/plots.yaml'),
      name: 'plots',
      projectDir: process.cwd(),
      config,
      backtest: backtestSectionSchema.parse({
        data: resolve('backtests/data/sample-day'),
        from: new Date(START).toISOString(),
        to: new Date(END).toISOString(),
        logLevel: 'silent',
      }),
    });
    // One live 1m candle a minute from 09:15 to 09:44, each at its end; NaN never recorded.
    expect(result.plots).toHaveLength(30);
    expect(result.plots[0]).toMatchObject({
      strategyId: 'probe',
      name: 'close',
      at: START + 60_000,
    });
    expect(result.plots.every((p) => p.name === 'close' && Number.isInteger(p.value))).toBe(true);
    expect(result.plots.at(-1)?.at).toBe(END);
    const report = JSON.parse(reportJson(result));
    expect(report.plots).toEqual(result.plots);
    expect(Object.keys(report)).toContain('plots');
    expect(Object.keys(report).slice(-3)).toEqual(['prices', 'equity', 'elapsedMs']);
  }, 60_000);
});
