import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import { istDayNumber } from '../../src/domain/ist.ts';
import { MemoryJournal } from '../../src/execution/journal.ts';
import { BotControls } from '../../src/runtime/bot-controls.ts';
import { type LifecycleStep, lifecycleStep } from '../../src/runtime/bot-controls-status.ts';
import { Kernel } from '../../src/runtime/kernel.ts';
import { startSimulator } from '../../src/sim/index.ts';
import { countedFetch, ioSettled } from '../helpers/execution-harness.ts';
import { kernelOnSim } from '../helpers/kernel-on-sim.ts';

const held = kernelOnSim();

const root = process.cwd();
const ist = (text: string) => Date.parse(`${text}+05:30`);

/** A paper bot whose one strategy places a market order every quote or two. */
async function startBot(clock: VirtualClock) {
  const sim = await startSimulator({ clock, seed: 7 });
  held.sim = sim;
  const config = parseConfig(
    `
mode: paper
broker:
  baseUrl: embedded
marketData:
  intervalMs: 1000
strategies:
  - id: flipper
    module: ${root}/test/fixtures/strategies/flip-flop.ts
execution:
  trackIntervalMs: 1000
state:
  dir: ${mkdtempSync(join(tmpdir(), 'tr-life-'))}
logging:
  summaryIntervalSeconds: 0
`,
    'c.yaml',
    {},
  );
  const kernel = await Kernel.create({
    config,
    configFile: join(root, 'config', 'test.yaml'),
    logger: pino({ level: 'silent' }),
    clock,
    endpoint: { baseUrl: sim.url, appId: 'sim-app', token: 'sim-token' },
    fetch: countedFetch,
    journal: new MemoryJournal(),
  });
  held.kernel = kernel;
  const controls = BotControls.of(kernel, pino({ level: 'silent' }));
  // Every order's whole life, seen independently of the controls.
  const seen = new Map<string, LifecycleStep[]>();
  kernel.engine.events$.subscribe((e) => {
    if ('tag' in e) seen.set(e.tag, [...(seen.get(e.tag) ?? []), lifecycleStep(e)]);
  });
  await kernel.start();
  const steps = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i++) {
      clock.advanceBy(1_000);
      await ioSettled();
    }
  };
  return { kernel, controls, seen, steps };
}

describe('BotControls over days of orders', () => {
  // Seen to fail: without the pruning every order of both days keeps its steps ('expected
  // 311 to be less than or equal to 103'); without the prune in status(), 'expected 53 to
  // be 51'. The day-one orders (Friday's last minutes) are more than a status shows.
  it('keeps lifecycles only for the orders its status shows, and today’s orders whole', {
    timeout: 120_000,
  }, async () => {
    const clock = new VirtualClock(ist('2026-11-20T15:17:00'));
    const { kernel, controls, seen, steps } = await startBot(clock);
    await steps(150);
    const firstDay = kernel.engine.orders().length;
    // Monday's session: the bot ran through the weekend.
    await clock.advanceToAsync(ist('2026-11-23T09:16:00'));
    await ioSettled();
    await steps(150);
    const orders = kernel.engine.orders();
    const today = istDayNumber(clock.now());
    const todays = orders.filter((o) => istDayNumber(o.placedAt) === today);
    expect(firstDay).toBeGreaterThan(50);
    expect(todays.length).toBeGreaterThan(50);
    // Bounded even with no status built: at most about twice what a status shows (50
    // finished, one working, the order of the event that pruned).
    expect(controls.lifecycleCount).toBeLessThanOrEqual(2 * (50 + 1) + 1);

    const status = controls.status();
    const shown = [...status.orders.working, ...status.orders.recent];
    expect(shown.length).toBeLessThanOrEqual(51);
    expect(controls.lifecycleCount).toBe(shown.length);
    expect(orders.length).toBeGreaterThan(2 * shown.length);
    for (const view of shown) {
      expect(istDayNumber(view.placedAt)).toBe(today);
      expect(view.lifecycle).toEqual(seen.get(view.tag));
      expect(view.lifecycle[0]?.type).toBe('OrderSubmitted');
    }
    expect(status.orders.recent.some((v) => v.lifecycle.at(-1)?.type === 'OrderFilled')).toBe(true);
  });
});
