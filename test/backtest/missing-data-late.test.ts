import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backtestSectionSchema } from '../../src/backtest/backtest-spec.ts';
import { MissingDataError } from '../../src/backtest/missing-data.ts';
import { runBacktest } from '../../src/backtest/run-backtest.ts';
import { parseConfig } from '../../src/config/load-config.ts';

/** The sample day with a strategy that follows SBIN, and on its first quote INFY (absent). */
function spec() {
  const config = parseConfig(
    `
mode: paper
strategies:
  - id: late
    module: ../test/fixtures/strategies/late-subscribe.ts
    params: { first: 3045, later: 1594 }
logging: { level: silent, summaryIntervalSeconds: 0 }
`,
    'config/missing-late.yaml',
    {},
  );
  return {
    file: resolve('config/missing-late.yaml'),
    name: 'missing-late',
    projectDir: process.cwd(),
    config,
    backtest: backtestSectionSchema.parse({
      data: 'backtests/data/sample-day',
      logLevel: 'silent',
    }),
  };
}

describe('a token first subscribed mid-run that the data lacks (review 15b must-fix 6)', () => {
  it('stops the replay at once, not after the rest of the day; allowed, the run goes on', async () => {
    const progress: number[] = [];
    const error = await runBacktest(spec(), { onProgress: (d) => progress.push(d) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MissingDataError);
    const report = (error as MissingDataError).report;
    expect(report.missing).toMatchObject([{ token: 1594, symbol: 'INFY-EQ' }]);
    // First subscribed on SBIN's first quote of the day (09:13 IST), mid-run.
    expect(report.missing[0]?.firstSubscribedAt).toBeGreaterThanOrEqual(report.contents.startMs);
    // The replay stopped there: it never reported more than a sliver of the 6 h 18 min day
    // (before the fix it replayed to the end, reporting 1, and only then threw).
    expect(Math.max(0, ...progress)).toBeLessThan(0.05);

    const allowed: number[] = [];
    const result = await runBacktest(spec(), {
      allowMissing: true,
      onProgress: (d) => allowed.push(d),
    });
    expect(result.missingData?.missing.map((m) => m.token)).toEqual([1594]);
    expect(allowed.at(-1)).toBe(1);
  }, 60_000);

  it('warns when the benchmark is a token the data holds no price for (review 15b nice 1)', async () => {
    const s = spec();
    const withBenchmark = {
      ...s,
      config: { ...s.config, strategies: [] },
      backtest: backtestSectionSchema.parse({
        data: 'backtests/data/sample-day',
        logLevel: 'silent',
        to: '2026-11-20T09:30:00+05:30',
        benchmark: 1594,
      }),
    };
    const result = await runBacktest(withBenchmark);
    expect(result.warnings).toContainEqual(
      'benchmark 1594 (INFY-EQ): the data holds no price for it in the window, so the report has no benchmark',
    );
    // A token the data holds: no warning.
    const held = await runBacktest({
      ...withBenchmark,
      backtest: { ...withBenchmark.backtest, benchmark: 3045 },
    });
    expect(held.warnings ?? []).toEqual([]);
  }, 60_000);
});
