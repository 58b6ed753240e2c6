import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { FastReplay } from '../../src/backtest/fast-replay.ts';
import { readRecording } from '../../src/backtest/read-recording.ts';
import { loadStrategy } from '../../src/strategy/load-strategy.ts';

describe('FastReplay (the benchmark pipeline)', () => {
  it('drives an unchanged strategy module over every record and fills its orders', async () => {
    const rec = await readRecording('backtests/data/sample-day');
    const sma = await loadStrategy(
      'sma',
      'strategies/sma-crossover.ts',
      { fast: 3, slow: 8, barSeconds: 60, quantity: 10 },
      process.cwd(),
    );
    const stats = new FastReplay(rec, [sma], pino({ level: 'silent' })).run();
    expect(stats.events).toBe(rec.meta.records);
    expect(stats.intents).toBeGreaterThan(5);
    expect(stats.fills).toBeGreaterThanOrEqual(stats.intents);
  });
});
