import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort } from '../helpers/redis-server.ts';
import { runCli } from './run-cli.ts';

const out = (): string => mkdtempSync(join(tmpdir(), 'tr-sweep-queue-'));

describe('tiqs-runner backtest --sweep --queue: usage and an unreachable Redis', () => {
  it('exits 4 at once naming the URL, its password masked, when Redis cannot be reached', async () => {
    const port = await freePort();
    const started = Date.now();
    const { code, stderr } = await runCli(
      'backtest',
      '--config',
      'backtests/sma-crossover.yaml',
      '--sweep',
      '--queue',
      `redis://me:s3cret@127.0.0.1:${port}/2`,
      '--out',
      out(),
    );
    // Checked it can fail: with the reachability check removed, the submitter reconnected
    // for ever and the run hit the test's timeout.
    expect(code).toBe(4);
    expect(stderr).toContain(`redis://me:***@127.0.0.1:${port}/2 cannot be reached`);
    expect(stderr).toMatch(/ECONNREFUSED/);
    expect(stderr).not.toContain('s3cret');
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('refuses --queue without --sweep, with --workers, or with a bad URL', async () => {
    const base = ['backtest', '--config', 'backtests/sma-crossover.yaml', '--out', out()];
    const noSweep = await runCli(...base, '--queue', 'redis://127.0.0.1:1');
    expect(noSweep.code).toBe(2);
    expect(noSweep.stderr).toMatch(/--queue needs --sweep/);
    const workers = await runCli(...base, '--sweep', '--workers', '2', '--queue', 'redis://h:1');
    expect(workers.code).toBe(2);
    const bad = await runCli(...base, '--sweep', '--queue', 'http://127.0.0.1:1');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--queue: scheme http: is not redis:/);
  });
});
