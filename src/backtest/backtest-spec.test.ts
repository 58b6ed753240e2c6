import { describe, expect, it } from 'vitest';
import { ConfigError } from '../config/config-error.ts';
import { parseBacktestSpec } from './backtest-spec.ts';

const strategies = 'strategies:\n  - id: sma\n    module: ../strategies/sma.ts\n';

function problemsOf(text: string) {
  try {
    parseBacktestSpec(text, '/p/backtests/x.yaml', {});
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message.startsWith('/p/backtests/x.yaml: ')).toBe(true);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('parseBacktestSpec', () => {
  it('resolves paths against the spec folder and defaults out to out/<name> there', () => {
    const spec = parseBacktestSpec(
      `backtest:\n  data: data/day\n${strategies}`,
      '/p/backtests/x.yaml',
      {},
    );
    expect(spec.backtest.data).toBe('/p/backtests/data/day');
    expect(spec.backtest.out).toBe('/p/backtests/out/x');
    expect(spec.config.strategies[0]?.module).toBe('/p/strategies/sma.ts');
    expect(spec.config.mode).toBe('paper');
    expect(spec).not.toHaveProperty('config.backtest');
  });

  it.each([
    ['backtest:\n  dta: data/day\n', 'backtest.dta', '"data"'],
    [
      'backtest:\n  data: d\n  costs:\n    options:\n      brokerageFlt: 10\n',
      'backtest.costs.options.brokerageFlt',
      '"brokerageFlat"',
    ],
    [
      'backtest:\n  data: d\n  sweep:\n    rankby: sharpe\n    params: { sma.fast: [1] }\n',
      'backtest.sweep.rankby',
      '"rankBy"',
    ],
    ['backtest:\n  data: d\nrisk:\n  dailyMaxLos: 1\n', 'risk.dailyMaxLos', '"dailyMaxLoss"'],
  ])('rejects unknown keys anywhere: %j', (section, path, near) => {
    expect(problemsOf(`${section}${strategies}`)).toContainEqual({
      path,
      message: expect.stringContaining(`did you mean ${near}?`),
    });
  });

  it('rejects a mode other than paper', () => {
    expect(problemsOf(`mode: live\nbacktest:\n  data: d\n${strategies}`)).toEqual([
      { path: 'mode', message: 'a backtest runs in mode paper (simulated fills); omit mode' },
    ]);
  });
});
