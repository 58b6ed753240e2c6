import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/load-config.ts';
import { loadStrategy, StrategyLoadError } from './load-strategy.ts';

const sma = resolve('strategies/sma-crossover.ts');
const straddle = resolve('strategies/index-short-straddle.ts');

async function loadError(...args: Parameters<typeof loadStrategy>): Promise<StrategyLoadError> {
  const err = await loadStrategy(...args).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StrategyLoadError);
  return err as StrategyLoadError;
}

describe('loadStrategy', () => {
  it('rejects an unknown param naming the config file, entry, path and nearest key', async () => {
    const err = await loadError('sma', sma, { fastt: 3 }, '/', { file: 'bot.yaml', index: 2 });
    expect(err.message).toBe(
      `bot.yaml: strategies[2] (strategy "sma", ${sma}): params.fastt: unknown key "fastt"; did you mean "fast"?`,
    );
  });

  it('reports unknown and invalid params together', async () => {
    const err = await loadError('sma', sma, { quantity: -1, slo: 3 }, '/');
    expect(err.message).toContain('params.slo: unknown key "slo"; did you mean "slow"?');
    expect(err.message).toContain('params.quantity:');
  });

  it('types whole-value placeholders in params with the strategy schema', async () => {
    const config = parseConfig(
      `mode: paper\nstrategies:\n  - id: sma\n    module: ${sma}\n    params:\n      fast: \${FAST:-4}\n      slow: \${SLOW}\n      symbol: \${SYM}\n`,
      'bot.yaml',
      { SLOW: '9', SYM: '123' },
    );
    const s = config.strategies[0];
    if (s === undefined) throw new Error('no strategy');
    const loaded = await loadStrategy(s.id, s.module, s.params, '/');
    expect(loaded.params).toMatchObject({ fast: 4, slow: 9, symbol: '123' });
  });

  it('accepts the shipped strategies with their defaults', async () => {
    await expect(loadStrategy('s', straddle, {}, '/')).resolves.toMatchObject({ file: straddle });
  });

  it('says "module not found" only when the module file itself is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-strategy-'));
    const missing = await loadError('x', 'nope.ts', {}, dir);
    expect(missing.message).toBe(
      `strategy "x" (${join(dir, 'nope.ts')}): cannot load: module not found`,
    );
    writeFileSync(join(dir, 'bad.ts'), "import 'no-such-package-xyz';\nexport default {};\n");
    const bad = await loadError('x', 'bad.ts', {}, dir);
    expect(bad.message).toContain(`(${join(dir, 'bad.ts')}): cannot load: `);
    expect(bad.message).toContain('no-such-package-xyz');
  });
});
