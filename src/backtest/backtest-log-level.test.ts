import { describe, expect, it } from 'vitest';
import { parseBacktestSpec } from './backtest-spec.ts';

const strategies = 'strategies:\n  - id: sma\n    module: ../strategies/sma.ts\n';

/** The level a spec's backtest runs at (`backtest.logLevel` of the parsed spec). */
function levelOf(extra: string, env: Record<string, string> = {}) {
  const text = `backtest:\n  data: d\n${extra}${strategies}`;
  return parseBacktestSpec(text, '/p/backtests/x.yaml', env).backtest.logLevel;
}

describe('backtest log level (issue 15)', () => {
  it('is warn when the spec sets neither', () => {
    expect(levelOf('')).toBe('warn');
    // A logging section without a level does not make the runner's default (info) a choice.
    expect(levelOf('logging:\n  format: pretty\n')).toBe('warn');
  });

  it('is backtest.logLevel when only that is set', () => {
    expect(levelOf('  logLevel: error\n')).toBe('error');
  });

  it('is logging.level when the spec writes it, over backtest.logLevel', () => {
    expect(levelOf('logging:\n  level: info\n')).toBe('info');
    expect(levelOf('  logLevel: error\nlogging:\n  level: debug\n')).toBe('debug');
    expect(levelOf('  logLevel: debug\nlogging:\n  level: trace\n')).toBe('trace');
    expect(levelOf('logging:\n  level: ${LEVEL}\n', { LEVEL: 'silent' })).toBe('silent');
  });
});
