import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBacktestSpec } from '../../src/backtest/backtest-spec.ts';
import { loadConfig } from '../../src/config/load-config.ts';
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

  it('accepts every shipped config and backtest spec, whose paths follow the config-folder rule', async () => {
    const saved = { app: process.env.TIQS_APP_ID, token: process.env.TIQS_ACCESS_TOKEN };
    process.env.TIQS_APP_ID = 'app';
    process.env.TIQS_ACCESS_TOKEN = 'token';
    try {
      for (const file of ['config/paper.yaml', 'config/live.example.yaml']) {
        // --offline: the live example names the real service, which tests never call.
        const r = await runCli('validate', '--config', file, '--offline');
        expect(r.stderr).toBe('');
        expect(r.code).toBe(0);
      }
    } finally {
      for (const [key, value] of [
        ['TIQS_APP_ID', saved.app],
        ['TIQS_ACCESS_TOKEN', saved.token],
      ] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    const root = process.cwd();
    for (const name of readdirSync('backtests').filter((f) => f.endsWith('.yaml'))) {
      const file = join('backtests', name);
      if (name === 'record-sample.yaml') {
        const config = await loadConfig(file);
        expect(config.state.dir).toBe(join(root, 'var/state/record-sample'));
        for (const s of config.strategies) expect(existsSync(s.module)).toBe(true);
        continue;
      }
      const spec = await loadBacktestSpec(file);
      expect(existsSync(spec.backtest.data)).toBe(true);
      expect(spec.backtest.out).toBe(join(root, 'backtests/out', name.replace('.yaml', '')));
      for (const s of spec.config.strategies) expect(existsSync(s.module)).toBe(true);
    }
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
