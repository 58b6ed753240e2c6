import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import type { OrderEvent } from '../../src/domain/order-events.ts';
import { Kernel } from '../../src/runtime/kernel.ts';
import { startSimulator } from '../../src/sim/index.ts';
import { countedFetch, ioSettled } from '../helpers/execution-harness.ts';
import { kernelOnSim } from '../helpers/kernel-on-sim.ts';

const held = kernelOnSim();

const root = process.cwd();
// Absolute module paths: the test holds whichever folder relative paths resolve against.
const configText = (stateDir: string) => `
mode: paper
broker:
  baseUrl: embedded
marketData:
  intervalMs: 1000
strategies:
  - id: buyer
    module: ${root}/test/fixtures/strategies/buy-once.ts
    params: { quantity: 10 }
  - id: rester
    module: ${root}/test/fixtures/strategies/rest-limit.ts
  - id: thrower
    module: ${root}/test/fixtures/strategies/throws-in-setup.ts
  - id: later
    module: ${root}/test/fixtures/strategies/errors-later.ts
execution:
  trackIntervalMs: 1000
state:
  dir: ${stateDir}
logging:
  summaryIntervalSeconds: 0
`;

/** Starts a simulator and a paper kernel on one virtual clock; steps time with `step`. */
async function startPaperKernel(start: string, edit: (text: string) => string = (t) => t) {
  const clock = new VirtualClock(Date.parse(start));
  const sim = await startSimulator({ clock, seed: 11 });
  held.sim = sim;
  const stateDir = mkdtempSync(join(tmpdir(), 'tr-state-'));
  const kernel = await Kernel.create({
    config: parseConfig(edit(configText(stateDir)), 'config/test.yaml', {}),
    configFile: join(process.cwd(), 'config', 'test.yaml'),
    logger: pino({ level: 'silent' }),
    clock,
    endpoint: { baseUrl: sim.url, appId: 'sim-app', token: 'sim-token' },
    fetch: countedFetch,
  });
  held.kernel = kernel;
  const events: OrderEvent[] = [];
  kernel.engine.events$.subscribe((e) => events.push(e));
  await kernel.start();
  const step = async (): Promise<void> => {
    clock.advanceBy(1_000);
    await ioSettled();
  };
  return { clock, sim, kernel, events, step };
}

describe('kernel in paper mode on the simulator', () => {
  it('trades on simulated fills, sends no order request, and survives faulty strategies', async () => {
    const { kernel, sim, events, step } = await startPaperKernel('2026-11-20T09:20:00+05:30');
    for (let second = 0; second < 20; second++) await step();

    const types = events.filter((e) => e.strategyId === 'buyer').map((e) => e.type);
    expect(types).toContain('OrderSubmitted');
    expect(types).toContain('OrderFilled');
    const [position] = kernel.engine.positions.positions('buyer');
    expect(position?.netQuantity).toBe(10);

    expect(kernel.strategyStatus()).toEqual({
      buyer: 'running',
      rester: 'running',
      thrower: 'failed',
      later: 'failed',
    });
    expect(kernel.engine.orders('rester')[0]?.status).toBe('open');

    const stats = sim.stats;
    expect(stats.count('quotes')).toBeGreaterThan(0);
    for (const route of [
      'placeOrder',
      'modifyOrder',
      'cancelOrder',
      'orderDetails',
      'orderBook',
      'tradeBook',
    ] as const) {
      expect(stats.count(route)).toBe(0);
    }
    await kernel.stop();
    // The resting order was cancelled at shutdown, in the paper broker: still no request.
    expect(kernel.engine.orders('rester')[0]?.status).toBe('cancelled');
    // The default policy (cancel-entries) keeps positions: nothing was sold at the stop.
    expect(kernel.engine.positions.positions('buyer')[0]?.netQuantity).toBe(10);
    expect(events.filter((e) => e.type === 'OrderSubmitted' && e.intent.side === 'S')).toEqual([]);
    expect(stats.count('cancelOrder')).toBe(0);
  });

  it('squares off intraday positions before the close, in virtual time, and keeps delivery', async () => {
    // The buyer also buys 5 as delivery. Checked to fail with the kernel's square-off sent
    // without its product (the whole net): it sold all 15, the delivery shares as intraday.
    const { kernel, clock, events, step } = await startPaperKernel(
      '2026-11-20T15:17:00+05:30',
      (text) =>
        text
          .replace(/ {2}- id: thrower[\s\S]*?errors-later.ts\n/, '')
          .replace('params: { quantity: 10 }', 'params: { quantity: 10, delivery: 5 }')
          .replace('execution:\n', 'execution:\n  squareOffMinutesBeforeClose: 10\n'),
    );
    for (let second = 0; second < 30; second++) await step();
    expect(kernel.engine.positions.positions('buyer')[0]?.netQuantity).toBe(15);
    const sells = () =>
      events.flatMap((e) =>
        e.type === 'OrderSubmitted' && e.intent.side === 'S'
          ? [[e.intent.quantity, e.intent.product]]
          : [],
      );
    expect(sells()).toHaveLength(0);
    // 15:20 IST is ten minutes before the 15:30 close.
    while (clock.now() < Date.parse('2026-11-20T15:20:30+05:30')) await step();
    expect(sells()).toEqual([[10, 'I']]);
    expect(kernel.engine.positions.positions('buyer')[0]?.netQuantity).toBe(5);
  });
});
