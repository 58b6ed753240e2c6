import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backtestSectionSchema } from '../../src/backtest/backtest-spec.ts';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import { RELIANCE, SBIN, writeCandleFixture } from './candle-replay-fixture.ts';

const GOLDEN = 'test/backtest/golden-candles-year.json';

/**
 * A year of 1-minute candles for two instruments, generated here (seeded), backtested end
 * to end: two sma-crossover instances and brackets (limit and stop legs: the bar fill
 * model), through runBacktest. The figures are pinned; set
 * UPDATE_GOLDEN=1 to write them again (and say why in the commit).
 */
/** The year's candles (~10 MB): removed after the test, pass or fail. */
const root = mkdtempSync(join(tmpdir(), 'tr-candles-year-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('backtest of a year of 1m candles (golden)', () => {
  it('gives the pinned trades, fills and net PnL, and replays within the CI budget', async () => {
    const data = join(root, 'year');
    const written = performance.now();
    const bars = await writeCandleFixture(data, {
      from: '2026-01-01',
      to: '2026-12-31',
      instruments: [SBIN, RELIANCE],
      seed: 2026,
    });
    const writeMs = performance.now() - written;
    const total = [...bars.values()].reduce((n, b) => n + b.length, 0);
    const config = parseConfig(
      `
mode: paper
strategies:
  - id: sma-sbin
    module: ../strategies/sma-crossover.ts
    params: { symbol: SBIN-EQ, fast: 5, slow: 20, interval: 5m, quantity: 100 }
  - id: sma-reliance
    module: ../strategies/sma-crossover.ts
    params: { symbol: RELIANCE-EQ, fast: 5, slow: 20, interval: 15m, quantity: 50 }
  - id: brackets
    module: ../test/fixtures/strategies/bracket-probe.ts
    params: { token: 3045, everySeconds: 5400, flatAt: '15:00' }
paper: { slippageTicks: 1 }
logging: { level: silent, summaryIntervalSeconds: 0 }
`,
      'config/golden-candles-year.yaml',
      {},
    );
    const result = await runBacktest({
      file: resolve('config/golden-candles-year.yaml'),
      name: 'golden-candles-year',
      projectDir: process.cwd(),
      config,
      backtest: backtestSectionSchema.parse({ data, logLevel: 'silent' }),
    });
    const figures = {
      bars: total,
      trades: result.trades.length,
      fills: result.fills.length,
      netPnl: result.summary.netPnl,
      rejected: result.rejections.length,
      // The bar fill model at work: bracket legs (limit target, stop) filled at touched prices.
      legFills: result.fills.filter((f) => /\/(sl|tp)$/.test(f.intentId)).length,
      strategies: result.strategies,
    };
    // Throughput, for the report (not asserted: machines differ).
    console.info(
      `golden-candles-year: ${total} bars written in ${Math.round(writeMs)} ms, replayed in ${result.elapsedMs} ms (${Math.round(total / (result.elapsedMs / 1_000))} bars/s, ${result.replay.steps} steps)`,
    );
    if (process.env.UPDATE_GOLDEN === '1') {
      writeFileSync(GOLDEN, `${JSON.stringify(figures, null, 2)}\n`);
    }
    expect(figures).toEqual(JSON.parse(readFileSync(GOLDEN, 'utf8')));
    expect(result.fills.length).toBeGreaterThan(100);
  }, 300_000);
});
