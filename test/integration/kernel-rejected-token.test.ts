import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import { memoryLogger } from '../../src/market-data/testing/fake-quote-source.ts';
import { Kernel } from '../../src/runtime/kernel.ts';
import { startSimulator } from '../../src/sim/index.ts';
import { countedFetch, ioSettled } from '../helpers/execution-harness.ts';
import { kernelOnSim } from '../helpers/kernel-on-sim.ts';

const held = kernelOnSim();

const root = process.cwd();
const configText = (stateDir: string) => `
mode: paper
broker:
  baseUrl: embedded
marketData:
  intervalMs: 1000
strategies:
  - id: blinded
    module: ${root}/test/fixtures/strategies/watch-tokens.ts
    params: { tokens: [1, 3045, 1333] }
  - id: sharer
    module: ${root}/test/fixtures/strategies/watch-tokens.ts
    params: { tokens: [3045, 1333] }
state:
  dir: ${stateDir}
logging:
  summaryIntervalSeconds: 5
`;

describe('kernel: a token the service rejects, in one strategy', () => {
  it('keeps both strategies fed, tells the one that asked, and the summary names it', async () => {
    const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
    const sim = await startSimulator({ clock, seed: 3 });
    held.sim = sim;
    const log = memoryLogger('info');
    const stateDir = mkdtempSync(join(tmpdir(), 'tr-state-'));
    const kernel = await Kernel.create({
      config: parseConfig(configText(stateDir), 'config/test.yaml', {}),
      configFile: join(root, 'config', 'test.yaml'),
      logger: log.logger,
      clock,
      endpoint: { baseUrl: sim.url, appId: 'sim-app', token: 'sim-token' },
      fetch: countedFetch,
    });
    held.kernel = kernel;
    await kernel.start();
    for (let ms = 0; ms < 11_000; ms += 125) {
      clock.advanceBy(125);
      await ioSettled();
    }

    const lines = (msg: string, strategy?: string) =>
      log.lines.filter((l) => l.msg === msg && (strategy === undefined || l.strategy === strategy));
    // The strategy that asked for token 1 is told; the other is not.
    expect(lines('token health', 'blinded').map((l) => [l.token, l.status])).toEqual([
      [1, 'rejected'],
    ]);
    expect(lines('token health', 'sharer')).toEqual([]);
    // Both keep getting quotes of the good tokens, the shared ones included.
    for (const id of ['blinded', 'sharer']) {
      const seen = new Set(lines('quote seen', id).map((l) => l.token));
      expect(seen).toEqual(new Set([3045, 1333]));
    }
    // The summary names the token and the starved strategy, while it still "runs".
    const summary = lines('market summary').at(-1);
    expect(summary?.rejectedTokens).toEqual([1]);
    expect(summary?.strategies).toEqual({ blinded: 'running', sharer: 'running' });
    expect(summary?.strategyData).toEqual({
      blinded: { status: 'rejected', rejectedTokens: [1], staleTokens: [] },
      sharer: { status: 'ok', rejectedTokens: [], staleTokens: [] },
    });
    expect(sim.stats.responses(429)).toBe(0);
  });
});
