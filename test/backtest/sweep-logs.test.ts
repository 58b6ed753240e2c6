import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBacktestSpec } from '../../src/backtest/backtest-spec.ts';
import { runSweep } from '../../src/backtest/sweep-runner.ts';

/** sma-crossover over the sample day's first hour, two sweep points, logging at info. */
async function spec() {
  const dir = mkdtempSync(join(tmpdir(), 'tr-sweep-logs-'));
  const file = join(dir, 'sma.yaml');
  const text = readFileSync('backtests/sma-crossover.yaml', 'utf8')
    .replace('data: data/sample-day', `data: ${resolve('backtests/data/sample-day')}`)
    .replace('capital: 1000000', 'capital: 1000000\n  to: "2026-11-20T10:15:00+05:30"')
    .replace('../strategies/sma-crossover.ts', resolve('strategies/sma-crossover.ts'))
    .replace(
      /sma\.fast: \[3, 5\]\n\s+sma\.slow: \[8, 13, 21\]/,
      'sma.fast: [3]\n      sma.slow: [8, 13]',
    );
  writeFileSync(file, `${text}logging: { level: info }\n`);
  return { spec: await loadBacktestSpec(file), out: join(dir, 'out') };
}

// The sweeps start worker processes: seconds each on a loaded 2-core CI machine (8 s for the
// first test, in the unit run beside two busy loops), so more than vitest's default 20 s per
// test.
describe('sweep log lines (issue 15 §5)', { timeout: 60_000 }, () => {
  it('come back from the workers to onLog, pretty when the parent prints to a terminal', async () => {
    const { spec: s, out } = await spec();
    const lines: string[] = [];
    const ranked = await runSweep(s, {
      out,
      workers: 2,
      onLog: (t) => lines.push(t),
      logTTY: true,
    });
    expect(ranked.results).toHaveLength(2);
    const text = lines.join('');
    // Each line says which run wrote it: the two runs' lines interleave.
    expect(text).toMatch(
      /^#0 sma\.fast=3 sma\.slow=8 │ 09:36:01 IST {2}sma {2}BUY 100 SBIN-EQ @ ₹798\.60 filled \(order 9000000001\)$/m,
    );
    expect(text).toMatch(
      /^#1 sma\.fast=3 sma\.slow=13 │ \d\d:\d\d:\d\d IST {2}sma {2}BUY 100 SBIN-EQ/m,
    );
    expect(text.split('\n').filter((l) => l !== '' && !/^#[01] /.test(l))).toEqual([]);
    expect(text).not.toContain('"level"');
  });

  it('are JSON with marketTime when the parent does not print to a terminal', async () => {
    const { spec: s, out } = await spec();
    const lines: string[] = [];
    await runSweep(s, { out, workers: 1, onLog: (t) => lines.push(t) });
    const records = lines.map(
      (l) => JSON.parse(l) as { msg: string; marketTime: string; sweepRun: number },
    );
    expect(new Set(records.map((r) => r.sweepRun))).toEqual(new Set([0, 1]));
    expect(records.filter((r) => r.msg === 'OrderFilled').length).toBeGreaterThan(2);
    expect(records.every((r) => r.marketTime.startsWith('2026-11-20T'))).toBe(true);
  });
});
