import { describe, expect, it } from 'vitest';
import { loadBacktestSpec } from './backtest-spec.ts';
import { runBacktest } from './run-backtest.ts';

describe('runBacktest: virtual time jumps to what is due', () => {
  it('takes at most a step per record plus a step per timer fired, and none per idle second', async () => {
    const spec = await loadBacktestSpec('backtests/sma-crossover.yaml');
    const result = await runBacktest(spec);
    const { steps, records, timersFired } = result.replay;
    const seconds = (result.summary.endMs - result.summary.startMs) / 1_000;
    expect(result.fills.length).toBeGreaterThan(10); // orders were tracked all along
    expect(records).toBe(result.summary.quoteEvents);
    expect(steps).toBeLessThanOrEqual(records + timersFired);
    // The order tracker's 1 s tick used to make a step of every virtual second (22 735
    // steps, 28 044 timers here); now it fires only after the paper venue changed.
    expect(timersFired).toBeLessThan(seconds / 2);
    expect(steps).toBeLessThan(seconds / 2);
  }, 60_000);
});
