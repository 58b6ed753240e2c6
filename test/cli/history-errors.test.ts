import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'tr-history-'));
const config = join(dir, 'bot.yaml');
writeFileSync(
  config,
  `mode: paper
broker: { baseUrl: embedded, sim: { seed: 42 } }
strategies:
  - id: sma
    module: ${resolve('strategies/sma-crossover.ts')}
    params: { fast: 3, slow: 8, interval: 1m, quantity: 10 }
state: { dir: ${join(dir, 'state')} }
`,
);

const history = (out: string, ...more: string[]) =>
  runCli('history', '--config', config, '--interval', '1d', '--out', out, ...more);

describe('tiqs-runner history on the embedded simulator', () => {
  it('downloads day bars and resumes with nothing to fetch', async () => {
    const out = join(dir, 'days');
    const range = ['--tokens', '3045', '--from', '2025-01-01', '--to', '2025-12-31'];
    // 2025 in the simulator calendar: 261 weekdays, 13 of them holidays, 2 special Saturdays.
    const first = await history(out, ...range);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^history: 1 chunks fetched, 0 already present; 250 1d bars of 1 tokens, 2025-01-01\.\.2025-12-31/,
    );
    const again = await history(out, ...range);
    expect(again.stdout).toMatch(/^history: 0 chunks fetched, 1 already present/);
  });

  it('warns on stderr about a token that got no bars (an option: the simulator has no past)', async () => {
    const out = join(dir, 'option');
    const run = await history(
      out,
      '--tokens',
      '3045,40040',
      '--from',
      '2025-01-01',
      '--to',
      '2025-01-31',
    );
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/history: WARNING: no bars at all for 40040 \(NIFTY/);
    expect(run.stderr).not.toMatch(/3045/);
  });

  it('names unknown tokens, refuses bad ranges (exit 2), and writes nothing', async () => {
    const out = join(dir, 'none');
    const unknown = await history(
      out,
      '--tokens',
      '3045,424242',
      '--from',
      '2025-01-01',
      '--to',
      '2025-01-31',
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/the instrument master lists no token 424242/);
    const future = await history(
      out,
      '--tokens',
      '3045',
      '--from',
      '2025-01-01',
      '--to',
      '2099-01-01',
    );
    expect(future.code).toBe(2);
    expect(future.stderr).toMatch(/--to 2099-01-01 must be before the source's today/);
    const reversed = await history(
      out,
      '--tokens',
      '3045',
      '--from',
      '2025-02-01',
      '--to',
      '2025-01-01',
    );
    expect(reversed.code).toBe(2);
    expect(existsSync(out)).toBe(false);
  });
});
