import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import type { RoutedIntent } from '../../src/domain/intents.ts';
import { Kernel } from '../../src/runtime/kernel.ts';
import { startSimulator } from '../../src/sim/index.ts';
import { countedFetch } from '../helpers/execution-harness.ts';
import { kernelOnSim } from '../helpers/kernel-on-sim.ts';

const held = kernelOnSim();

const root = process.cwd();
const configText = (stateDir: string, symbol: string) => `
mode: paper
broker:
  baseUrl: embedded
strategies:
  - id: looker
    module: ${root}/test/fixtures/strategies/looks-up-instruments.ts
    params: { symbol: ${symbol} }
state:
  dir: ${stateDir}
logging:
  summaryIntervalSeconds: 0
`;

async function startKernel(symbol: string, stateDir = mkdtempSync(join(tmpdir(), 'tr-state-'))) {
  const clock = new VirtualClock(Date.parse('2026-11-20T09:20:00+05:30'));
  const sim = await startSimulator({ clock, seed: 11 });
  held.sim = sim;
  const kernel = await Kernel.create({
    config: parseConfig(configText(stateDir, symbol), 'config/test.yaml', {}),
    configFile: join(process.cwd(), 'config', 'test.yaml'),
    logger: pino({ level: 'silent' }),
    clock,
    endpoint: { baseUrl: sim.url, appId: 'sim-app', token: 'sim-token' },
    fetch: countedFetch,
  });
  held.kernel = kernel;
  const intents: RoutedIntent[] = [];
  kernel.intents$.subscribe((i) => intents.push(i));
  await kernel.start();
  return { kernel, intents, stateDir, sim };
}

describe('ctx.instruments in a kernel on the simulator (virtual time)', () => {
  it('is loaded before setup: lookup and byToken answer synchronously from the master, a miss is undefined', async () => {
    const { intents, stateDir, sim } = await startKernel('SBIN-EQ');
    expect(intents).toHaveLength(1);
    const [intent] = intents;
    expect(intent?.kind).toBe('squareOff');
    if (intent?.kind !== 'squareOff') return;
    expect(intent.token).toBe(3045);
    expect(JSON.parse(intent.reason ?? '{}')).toEqual({
      found: {
        exchange: 'NSE',
        token: 3045,
        symbol: 'SBIN-EQ',
        lotSize: 1,
        tickSize: 5,
        pricePrecision: 2,
      },
      nifty: 'NIFTY@NSE',
      miss: 'undefined',
    });
    // Cached for the day in the state folder; one request for it.
    // Named by its source (`baseUrl: embedded`), so a live config's start never reads it.
    expect(readdirSync(stateDir)).toContain('instruments-embedded-2026-11-20.csv');
    expect(sim.stats.count('instrumentMaster')).toBe(1);
  });

  it('finds an option by its symbol with its derivative terms', async () => {
    const clock = new VirtualClock(Date.parse('2026-11-20T09:20:00+05:30'));
    const probe = await startSimulator({ clock, seed: 11 });
    const option = probe.exchange.market.universe.optionsOf(26000)[0];
    await probe.close();
    const { kernel } = await startKernel(String(option?.symbol));
    const found = kernel.instruments.byToken(Number(option?.token), 'NFO');
    expect(found).toMatchObject({
      symbol: option?.symbol,
      lotSize: 65,
      optionType: option?.option?.optionType,
      strike: option?.option?.strike,
      expiry: option?.option?.expiry,
    });
  });
});
