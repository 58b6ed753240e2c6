import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

describe('tiqs-runner validate', () => {
  it('accepts the shipped paper config', async () => {
    const r = await runCli('validate', '--config', 'config/paper.yaml');
    expect(r.stdout).toContain('config/paper.yaml: ok');
    expect(r.code).toBe(0);
  });

  it('exits 3 and names file, field path and expectation for a bad config', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-'));
    const file = join(dir, 'bad.yaml');
    writeFileSync(
      file,
      'mode: paper\nmarketData:\n  intervalMs: fast\nstrategies: [{ id: a, module: strategies/sma-crossover.ts }]\n',
    );
    const r = await runCli('validate', '--config', file);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`${file}: marketData.intervalMs: `);
    expect(r.stderr).toMatch(/expected number/);
  });

  it('exits 3 and names the strategy and param path for bad strategy params', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-'));
    const file = join(dir, 'bad-params.yaml');
    writeFileSync(
      file,
      `mode: paper\nstrategies:\n  - id: sma\n    module: ${join(process.cwd(), 'strategies/sma-crossover.ts')}\n    params: { fast: 30, slow: 10, quantity: -1 }\n`,
    );
    const r = await runCli('validate', '--config', file);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('strategy "sma"');
    expect(r.stderr).toContain('params.quantity');
  });

  it('exits 2 on a missing required option', async () => {
    const r = await runCli('validate');
    expect(r.code).toBe(2);
  });
});

describe('tiqs-runner new-strategy', () => {
  it('scaffolds a strategy and its test, and refuses to overwrite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-'));
    const r = await runCli('new-strategy', 'mean-reversion', '--dir', dir);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'mean-reversion.ts'), 'utf8')).toContain(
      "name: 'mean-reversion'",
    );
    expect(readFileSync(join(dir, 'mean-reversion.test.ts'), 'utf8')).toContain(
      "describe('mean-reversion'",
    );
    const again = await runCli('new-strategy', 'mean-reversion', '--dir', dir);
    expect(again.code).toBe(1);
  });

  it('rejects a name that is not kebab-case', async () => {
    const r = await runCli('new-strategy', 'Bad_Name', '--dir', tmpdir());
    expect(r.code).toBe(2);
  });
});
