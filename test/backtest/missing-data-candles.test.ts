import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backtestSectionSchema } from '../../src/backtest/backtest-spec.ts';
import { MissingDataError } from '../../src/backtest/missing-data.ts';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import { SBIN, writeCandleFixture } from './candle-replay-fixture.ts';

/** A backtest of the candle recording `dir` with the SMA example on `symbol`. */
function spec(dir: string, symbol: string) {
  const config = parseConfig(
    `
mode: paper
strategies:
  - id: sma
    module: ../strategies/sma-crossover.ts
    params: { symbol: ${symbol}, fast: 3, slow: 8, interval: 1m, quantity: 10 }
logging: { level: silent, summaryIntervalSeconds: 0 }
`,
    'config/missing-candles.yaml',
    {},
  );
  return {
    file: resolve('config/missing-candles.yaml'),
    name: 'missing-candles',
    projectDir: process.cwd(),
    config,
    backtest: backtestSectionSchema.parse({ data: dir, logLevel: 'silent' }),
  };
}

describe('missing data over a candle recording', () => {
  it('stops on a token the candles lack, naming what the recording holds; allowed, it runs on', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'tr-missing-candles-')), 'friday');
    await writeCandleFixture(dir, { from: '2026-11-20', to: '2026-11-20', instruments: [SBIN] });
    const error = await runBacktest(spec(dir, 'INFY-EQ')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingDataError);
    const report = (error as MissingDataError).report;
    expect(report.missing).toMatchObject([{ token: 1594, symbol: 'INFY-EQ' }]);
    expect(report.contents).toMatchObject({
      kind: 'candles',
      tokens: [{ token: 3045, symbol: 'SBIN-EQ' }],
      records: 375,
    });
    const allowed = await runBacktest(spec(dir, 'INFY-EQ'), { allowMissing: true });
    expect(allowed.missingData?.missing.map((m) => m.token)).toEqual([1594]);
    expect(allowed.fills).toEqual([]);
    // The data's own token passes the check.
    const held = await runBacktest(spec(dir, 'SBIN-EQ'));
    expect(held.missingData).toBeUndefined();
    expect(held.fills.length).toBeGreaterThan(0);
  }, 60_000);
});
