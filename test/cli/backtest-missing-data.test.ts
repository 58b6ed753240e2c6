import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = process.cwd();
const data = resolve('backtests/data/sample-day');

/** A backtest spec over the sample day's first minutes, with these strategies. */
function spec(strategies: string): { file: string; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'tr-missing-'));
  const file = join(dir, 'spec.yaml');
  writeFileSync(
    file,
    `backtest:
  data: ${data}
  capital: 1000000
  to: "2026-11-20T09:40:00+05:30"
strategies:
${strategies}
`,
  );
  return { file, out: join(dir, 'out') };
}

const sma = (id: string, symbol: string): string => `  - id: ${id}
    module: ${resolve('strategies/sma-crossover.ts')}
    params: { symbol: ${symbol}, fast: 3, slow: 8, interval: 1m, quantity: 10 }`;

/** Runs the built CLI as a user does; every wait bounded (killed after 60 s). */
function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(root, 'bin/tiqs-runner.js'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: tmpdir(),
  });
  let stdout = '';
  let stderr = '';
  const limit = setTimeout(() => child.kill('SIGKILL'), 60_000);
  child.stdout.on('data', (d) => {
    stdout += String(d);
  });
  child.stderr.on('data', (d) => {
    stderr += String(d);
  });
  return new Promise((done) =>
    child.on('exit', (code) => {
      clearTimeout(limit);
      done({ code, stdout, stderr });
    }),
  );
}

describe('backtest: tokens the data lacks are loud', () => {
  it('exits 3 naming the missing tokens and what the data holds (INFY and TCS on the sample day)', async () => {
    const { file, out } = spec(`${sma('infy', 'INFY-EQ')}\n${sma('tcs', 'TCS-EQ')}`);
    const run = await cli(['backtest', '--config', file, '--out', out]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(
      'strategies subscribe to 2 token(s) the backtest data does not hold: 1594 (INFY-EQ), 11536 (TCS-EQ)',
    );
    expect(run.stderr).toMatch(
      /the data \(ticks, 2026-11-20 09:13 → 2026-11-20 15:31 IST, 24768 records\) holds 5 token\(s\): 2885 \(RELIANCE-EQ\), 3045 \(SBIN-EQ\), 26000 \(NIFTY\)/,
    );
    expect(run.stderr).toContain('--allow-missing');
    expect(run.stdout).not.toMatch(/net PnL/);
    expect(existsSync(join(out, 'report.json'))).toBe(false);
  }, 90_000);

  it('--allow-missing runs on and prints the warning in the summary and report.json', async () => {
    const { file, out } = spec(`${sma('infy', 'INFY-EQ')}\n${sma('sbin', 'SBIN-EQ')}`);
    const run = await cli(['backtest', '--config', file, '--out', out, '--allow-missing']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /WARNING\s+strategies subscribe to 1 token\(s\) the backtest data does not hold: 1594 \(INFY-EQ\)/,
    );
    expect(run.stdout).toMatch(/net PnL\s+-?₹/);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.missingData.missing.map((m: { token: number }) => m.token)).toEqual([1594]);
    expect(report.missingData.contents.tokens).toContainEqual({ token: 3045, symbol: 'SBIN-EQ' });
  }, 90_000);

  it('checks again at the end: a token first subscribed mid-run that the data lacks exits 3', async () => {
    const { file, out } = spec(`  - id: late
    module: ${resolve('test/fixtures/strategies/late-subscribe.ts')}
    params: { first: 3045, later: 1594 }`);
    const run = await cli(['backtest', '--config', file, '--out', out]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('does not hold: 1594 (INFY-EQ)');
  }, 90_000);

  it('runs as before when the data holds every token', async () => {
    const { file, out } = spec(sma('sbin', 'SBIN-EQ'));
    const run = await cli(['backtest', '--config', file, '--out', out]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toMatch(/WARNING/);
    expect(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')).missingData).toBeNull();
  }, 90_000);

  it('a sweep whose runs lack data exits 3 too; --allow-missing ranks them', async () => {
    const { file, out } = spec(`${sma('infy', 'INFY-EQ')}`);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        'capital: 1000000',
        'capital: 1000000\n  sweep:\n    rankBy: netPnl\n    params:\n      infy.fast: [2, 3]',
      ),
    );
    const run = await cli([
      'backtest',
      '--config',
      file,
      '--out',
      out,
      '--sweep',
      '--workers',
      '1',
    ]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('does not hold: 1594 (INFY-EQ)');
    const allowed = await cli([
      'backtest',
      '--config',
      file,
      '--out',
      out,
      '--sweep',
      '--workers',
      '1',
      '--allow-missing',
    ]);
    expect(allowed.code).toBe(0);
    expect(allowed.stdout).toMatch(/rank by netPnl/);
    expect(allowed.stdout.match(/MISSING DATA for 1594/g)).toHaveLength(2);
    expect(readFileSync(join(out, 'sweep.html'), 'utf8')).toContain('⚠ data lacks 1594');
    expect(existsSync(join(out, 'sweep.html'))).toBe(true);
  }, 90_000);
});
