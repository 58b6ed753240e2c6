import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

/** The ORB spec cut to two sweep points over the first hour and three quarters. */
function shortSweepSpec(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tr-sweep-workers-'));
  const file = join(dir, 'orb.yaml');
  const text = readFileSync('backtests/opening-range-breakout.yaml', 'utf8')
    .replace('data: data/sample-day', `data: ${join(process.cwd(), 'backtests/data/sample-day')}`)
    .replace('capital: 1000000', 'capital: 1000000\n  to: "2026-11-20T11:00:00+05:30"')
    .replace(/module: \.\.\/strategies\//, `module: ${process.cwd()}/strategies/`)
    .replace('[5, 15, 30]', '[5, 15]');
  writeFileSync(file, text);
  return file;
}

describe('tiqs-runner backtest --sweep --workers', () => {
  it.each(['0', '-1', '1.5', 'two', ''])('refuses --workers %j as a usage error', async (n) => {
    const { code, stderr } = await runCli(
      'backtest',
      '--config',
      'backtests/sma-crossover.yaml',
      '--sweep',
      '--workers',
      n,
      '--out',
      mkdtempSync(join(tmpdir(), 'tr-sweep-workers-')),
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/--workers must be a whole number of worker processes, 1 or more/);
  });

  it('runs the sweep on as many worker processes as asked', async () => {
    const spec = shortSweepSpec();
    const out = join(spec, '..', 'out');
    const { code, stdout } = await runCli(
      'backtest',
      '--config',
      spec,
      '--sweep',
      '--workers',
      '1',
      '--out',
      out,
    );
    expect(code).toBe(0);
    expect(stdout).toMatch(/\n2 runs on 1 worker in \d+\.\d s\n/);
    const results = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')).results as {
      ok: boolean;
      worker: number;
    }[];
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(new Set(results.map((r) => r.worker)).size).toBe(1);
  });
});
