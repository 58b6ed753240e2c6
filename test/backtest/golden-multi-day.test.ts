import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestSpec } from '../../src/backtest/backtest-spec.ts';
import { type BacktestResult, runBacktest } from '../../src/backtest/run-backtest.ts';
import { DAY_MS } from '../../src/domain/ist.ts';
import { shiftRecording } from '../../src/recording/shift-recording.ts';

const SAMPLE = resolve('backtests/data/sample-day');
/** Friday 20 November 2026, then Monday the 23rd and Wednesday the 25th (the 24th is a holiday). */
const SHIFT_DAYS = [0, 3, 5];

/**
 * Everything a run reports that a change of timers, replay or fills could move: intents,
 * fills, per-order charges, round trips, PnL and the whole equity curve. Not wall time,
 * nor the replay's step counts (those are meant to fall).
 */
function resultText(r: BacktestResult): string {
  // Tokens as text, whichever type the result carries them in: the pin is about values.
  const tokenAsText = (key: string, value: unknown): unknown =>
    key === 'token' ? String(value) : value;
  return JSON.stringify(
    {
      intents: r.intents.map((i) => [i.at, i.strategyId, i.kind, i.id]),
      fills: r.fills.map((f) => [f.at, f.intentId, f.side, f.quantity, f.price]),
      orders: r.orders,
      trades: r.trades,
      equity: r.equity.map((p) => [p.at, p.equity, p.drawdown, p.exposure, p.open]),
      summary: r.summary,
      strategies: r.strategies,
    },
    tokenAsText,
  );
}

const digest = (r: BacktestResult): string =>
  createHash('sha256').update(resultText(r)).digest('hex').slice(0, 16);

describe('backtest of several days (golden)', () => {
  let data = '';
  beforeAll(async () => {
    data = mkdtempSync(join(tmpdir(), 'tr-golden-days-'));
    for (const days of SHIFT_DAYS) {
      await shiftRecording(SAMPLE, join(data, `day-${days}`), days * DAY_MS);
    }
  }, 60_000);

  // Pinned before the kernel's periodic timers were gated to sessions: the nights, the
  // weekend and the holiday between the days must cost steps only, never results. If a
  // change is intended, update test/backtest/golden-multi-day.json (and say why).
  it.each(['sma-crossover', 'index-short-straddle'])(
    '%s over Friday, Monday and Wednesday gives the pinned fills, PnL and equity',
    async (name) => {
      // The pre-v2 examples (issue 14 rewrote strategies/): the pins are their results.
      const spec = await loadBacktestSpec(`test/fixtures/backtests/legacy-${name}.yaml`);
      const r = await runBacktest({ ...spec, backtest: { ...spec.backtest, data } });
      expect(r.fills.length).toBeGreaterThan(0);
      const pinned = JSON.parse(readFileSync('test/backtest/golden-multi-day.json', 'utf8'));
      expect({ digest: digest(r), fills: r.fills.length, net: r.summary.netPnl }).toEqual(
        pinned[name],
      );
    },
    120_000,
  );
});
