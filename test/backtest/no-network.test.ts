import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { loadBacktestSpec } from '../../src/backtest/backtest-spec.ts';
import { runBacktest } from '../../src/backtest/run-backtest.ts';

// Count every simulator started and every HTTP client built, whoever builds them: a
// backtest replays a recording in process and needs neither.
const counts = vi.hoisted(() => ({ simulators: 0, clients: 0 }));
vi.mock('../../src/sim/http/start-simulator.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/sim/http/start-simulator.ts')>();
  return {
    ...real,
    startSimulator: (...args: Parameters<typeof real.startSimulator>) => {
      counts.simulators++;
      return real.startSimulator(...args);
    },
  };
});
vi.mock('../../src/api/tiqs-client.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/api/tiqs-client.ts')>();
  class CountedClient extends real.TiqsClient {
    constructor(...args: ConstructorParameters<typeof real.TiqsClient>) {
      super(...args);
      counts.clients++;
    }
  }
  return { ...real, TiqsClient: CountedClient };
});

describe('a backtest stays in process', () => {
  it('starts no HTTP simulator and builds no HTTP client', async () => {
    const spec = await loadBacktestSpec('backtests/sma-crossover.yaml');
    // The sample spec runs on `baseUrl: embedded`, the case that used to start one.
    expect(spec.config.broker.baseUrl).toBe('embedded');
    const lines: { msg?: string; component?: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n')) if (l !== '') lines.push(JSON.parse(l));
        done();
      },
    });
    const result = await runBacktest(spec, { logger: pino({ level: 'debug' }, sink) });
    expect(result.fills.length).toBeGreaterThan(0);
    expect(counts).toEqual({ simulators: 0, clients: 0 });
    expect(lines.some((l) => l.msg === 'bot started')).toBe(true);
    expect(lines.filter((l) => l.msg === 'embedded simulator started')).toEqual([]);
  });
});
