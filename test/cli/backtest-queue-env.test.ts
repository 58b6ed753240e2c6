import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../helpers/redis-server.ts';
import { runCli } from './run-cli.ts';

const sweep = (): string[] => [
  'backtest',
  '--config',
  'backtests/sma-crossover.yaml',
  '--sweep',
  '--out',
  mkdtempSync(join(tmpdir(), 'tr-sweep-queue-env-')),
  '--queue',
];

// Review 17, N2: `--queue` without a URL reads $TIQS_QUEUE, so a password need not be on
// the submitter's argv (readable by every local user), as `worker` without --queue.
describe('tiqs-runner backtest --sweep --queue (URL from $TIQS_QUEUE)', () => {
  const before = process.env.TIQS_QUEUE;
  afterEach(() => {
    if (before === undefined) delete process.env.TIQS_QUEUE;
    else process.env.TIQS_QUEUE = before;
  });

  it('reads the URL from $TIQS_QUEUE, its password masked in what it says', async () => {
    const port = await freePort();
    process.env.TIQS_QUEUE = `redis://me:s3cret@127.0.0.1:${port}/2`;
    const { code, stderr } = await runCli(...sweep());
    // Checked it can fail: with `--queue <url>` (a value required) commander refused the
    // flag (exit 2, "argument missing"), never reaching Redis.
    expect(code).toBe(4);
    expect(stderr).toContain(`redis://me:***@127.0.0.1:${port}/2 cannot be reached`);
    expect(stderr).not.toContain('s3cret');
  });

  it('is a usage error when $TIQS_QUEUE is unset, and names it when its URL is bad', async () => {
    delete process.env.TIQS_QUEUE;
    const unset = await runCli(...sweep());
    expect(unset.code).toBe(2);
    expect(unset.stderr).toMatch(/--queue without a URL reads \$TIQS_QUEUE, which is not set/);
    process.env.TIQS_QUEUE = 'http://127.0.0.1:1';
    const bad = await runCli(...sweep());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/\$TIQS_QUEUE: scheme http: is not redis:/);
  });
});
