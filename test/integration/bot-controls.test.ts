import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { SessionError } from '../../src/api/errors/session-error.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import { MemoryJournal } from '../../src/execution/journal.ts';
import { memoryLogger } from '../../src/market-data/testing/fake-quote-source.ts';
import { BotControls } from '../../src/runtime/bot-controls.ts';
import { type ControlRecord, ControlState } from '../../src/runtime/bot-controls-state.ts';
import { Kernel } from '../../src/runtime/kernel.ts';
import { startSimulator } from '../../src/sim/index.ts';
import { countedFetch, ioSettled } from '../helpers/execution-harness.ts';
import { kernelOnSim } from '../helpers/kernel-on-sim.ts';

const held = kernelOnSim();

const root = process.cwd();
const configText = (stateDir: string, risk: string) => `
mode: paper
broker:
  baseUrl: embedded
marketData:
  intervalMs: 1000
strategies:
  - id: flat
    module: ${root}/test/fixtures/strategies/buy-when-flat.ts
  - id: rester
    module: ${root}/test/fixtures/strategies/rest-limit.ts
risk: { ${risk} }
execution:
  trackIntervalMs: 1000
state:
  dir: ${stateDir}
logging:
  summaryIntervalSeconds: 0
`;

/** A paper kernel over the simulator on one virtual clock, with its controls. */
async function startBot(
  risk = 'flattenOnKill: true',
  journal = new MemoryJournal(),
  logger = pino({ level: 'silent' }),
) {
  const clock = new VirtualClock(Date.parse('2026-11-20T09:20:00+05:30'));
  const sim = await startSimulator({ clock, seed: 11 });
  held.sim = sim;
  const kernel = await Kernel.create({
    config: parseConfig(configText(mkdtempSync(join(tmpdir(), 'tr-ctl-')), risk), 'c.yaml', {}),
    configFile: join(root, 'config', 'test.yaml'),
    logger,
    clock,
    endpoint: { baseUrl: sim.url, appId: 'sim-app', token: 'sim-token' },
    fetch: countedFetch,
    journal,
  });
  held.kernel = kernel;
  const controls = BotControls.of(kernel, logger);
  let changes = 0;
  controls.changes$.subscribe(() => changes++);
  await kernel.start();
  const k = kernel;
  const steps = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i++) {
      clock.advanceBy(1_000);
      await ioSettled();
    }
  };
  const net = () => k.engine.positions.position('flat', 3045)?.netQuantity ?? 0;
  const journalled = () => JSON.parse(journal.getMeta('controls.log') ?? '[]') as ControlRecord[];
  return { kernel: k, controls, steps, net, journalled, changes: () => changes };
}

describe('BotControls over a paper kernel', () => {
  it('squares off everything, pauses every strategy until resumed, and journals who asked', async () => {
    const { kernel, controls, steps, net, journalled, changes } = await startBot();
    await steps(10);
    expect(net()).toBe(10);
    expect(kernel.engine.orders('rester').some((o) => o.status === 'open')).toBe(true);
    const seen = changes();
    expect(seen).toBeGreaterThan(0);

    const record = await controls.squareOffAll('tester');
    expect(record).toMatchObject({ who: 'tester', action: 'squareOffAll', outcome: 'done' });
    await steps(20);
    // Flat, and it stays flat: the strategy would buy again at once if it were not paused.
    expect(net()).toBe(0);
    expect(kernel.engine.orders('rester').every((o) => o.status !== 'open')).toBe(true);
    const status = controls.status();
    expect(status.strategies.map((s) => [s.id, s.paused])).toEqual([
      ['flat', true],
      ['rester', true],
    ]);
    expect(status.orders.working).toEqual([]);
    // The broker's own trade book agrees: flat.
    expect(await controls.brokerPositions()).toEqual([
      { token: 3045, symbol: 'SBIN-EQ', netQuantity: 0 },
    ]);
    const exit = status.orders.recent.find((o) => o.system && o.side === 'S');
    expect(exit?.lifecycle.map((s) => s.type)).toContain('OrderFilled');
    const fill = exit?.lifecycle.find((s) => s.type === 'OrderFilled');
    expect(fill).toMatchObject({ quantity: 10, price: expect.any(Number) });
    expect(status.positions.find((p) => p.strategyId === 'flat')?.netQuantity).toBe(0);
    expect(changes()).toBeGreaterThan(seen);
    expect(journalled().at(-1)).toMatchObject({ who: 'tester', action: 'squareOffAll' });

    expect(controls.resumeStrategy('flat', 'tester').outcome).toBe('done');
    expect(controls.resumeStrategy('flat', 'tester').outcome).toBe('unchanged');
    await steps(5);
    expect(net()).toBe(10);
    expect(journalled().map((r) => `${r.action}:${r.outcome}`)).toEqual([
      'squareOffAll:done',
      'resume:done',
      'resume:unchanged',
    ]);
  });

  it('pauses one strategy, squares off one token, and refuses an unknown strategy', async () => {
    const { controls, steps, net } = await startBot();
    await steps(10);
    expect(controls.pauseStrategy('nope', 'tester').outcome).toBe('refused');
    expect(controls.pauseStrategy('flat', 'tester').outcome).toBe('done');
    expect((await controls.squareOff(3045, 'tester')).outcome).toBe('done');
    await steps(10);
    expect(net()).toBe(0);
    expect((await controls.squareOff(3045, 'tester')).outcome).toBe('unchanged');
    expect(controls.status().strategies.find((s) => s.id === 'rester')?.paused).toBe(false);
  });

  it('trips the kill switch by hand once, and flattens with flattenOnKill', async () => {
    const { controls, steps, net } = await startBot();
    await steps(10);
    expect(controls.status().killSwitch.tripped).toBe(false);
    expect(controls.tripKillSwitch('tester').outcome).toBe('done');
    expect(controls.tripKillSwitch('tester').outcome).toBe('unchanged');
    await steps(10);
    expect(controls.status().killSwitch.tripped).toBe(true);
    // Flattened, and the switch keeps the strategy from buying again.
    expect(net()).toBe(0);
  });

  it('refuses every control once the bot is stopping, and sends nothing', async () => {
    const { kernel, controls, steps, net, journalled } = await startBot();
    await steps(10);
    expect(net()).toBe(10);
    controls.beginStop();
    const before = kernel.engine.orders().length;
    const records = [
      controls.pauseStrategy('flat', 't'),
      controls.resumeStrategy('flat', 't'),
      await controls.squareOff(3045, 't'),
      await controls.squareOffAll('t'),
      controls.tripKillSwitch('t'),
    ];
    expect(records.map((r) => `${r.action}:${r.outcome}:${r.detail}`)).toEqual([
      'pause:refused:the bot is stopping',
      'resume:refused:the bot is stopping',
      'squareOff:refused:the bot is stopping',
      'squareOffAll:refused:the bot is stopping',
      'killSwitch:refused:the bot is stopping',
    ]);
    expect(kernel.engine.orders().length).toBe(before);
    expect(kernel.engine.killed).toBe(false);
    expect(controls.status().strategies.every((s) => !s.paused)).toBe(true);
    expect(journalled()).toHaveLength(5);
  });

  it('says deferred, not done, when trading is paused, and done once the exits go out', async () => {
    const { kernel, controls, steps, net } = await startBot();
    await steps(10);
    expect(net()).toBe(10);
    kernel.engine.pause(new SessionError('refused', { operation: 'quotes', status: 401 }));
    const before = kernel.engine.orders().length;
    const held = await controls.squareOff(3045, 't');
    expect(held.outcome).toBe('deferred');
    expect(held.detail).toMatch(/sent when trading resumes/);
    expect(kernel.engine.orders().length).toBe(before);
    kernel.engine.resume();
    await steps(2);
    // The deferred exit went out once trading resumed (the strategy may buy again after).
    const exits = kernel.engine.orders('flat').filter((o) => o.intent.id.startsWith('ops-'));
    expect(exits.map((o) => [o.intent.side, o.status])).toEqual([['S', 'complete']]);
  });

  it('says loudly at start that a strategy is paused from an earlier run, and by whom', async () => {
    const journal = new MemoryJournal();
    const earlier = new ControlState(journal, pino({ level: 'silent' }));
    earlier.setPaused('flat', true);
    earlier.record({
      at: 1,
      who: 'telegram:42',
      action: 'pause',
      strategy: 'flat',
      outcome: 'done',
      detail: '',
    });
    const { logger, lines } = memoryLogger('info');
    const { kernel, steps, net } = await startBot('flattenOnKill: true', journal, logger);
    const warn = lines.find((l) => l.level === 40 && l.msg.includes('paused by an operator'));
    expect(warn?.msg).toContain('flat (by telegram:42)');
    expect(kernel.summaryStatus()).toEqual({ flat: 'paused', rester: 'running' });
    await steps(10);
    expect(net()).toBe(0);
    // Its dropped entries show at info, not hidden at debug.
    expect(lines.some((l) => l.level === 30 && l.msg.includes('entry dropped'))).toBe(true);
  });

  it('withdraws entries deferred while trading was paused, so nothing enters after square off all', async () => {
    const { kernel, controls, steps, net } = await startBot();
    kernel.engine.pause(new SessionError('refused', { operation: 'quotes', status: 401 }));
    await steps(5);
    const waiting = () => kernel.engine.openOrders('flat').filter((o) => o.status === 'deferred');
    expect(waiting()).toHaveLength(1);
    const denied: string[] = [];
    kernel.engine.events$.subscribe((e) => {
      if (e.type === 'OrderDenied') denied.push(e.reason);
    });
    await controls.squareOffAll('t');
    expect(waiting()).toEqual([]);
    expect(denied.some((r) => /before it was sent/.test(r))).toBe(true);
    kernel.engine.resume();
    await steps(10);
    expect(net()).toBe(0);
    expect(kernel.engine.orders('flat').filter((o) => o.intent.side === 'B')).toEqual([]);
  });
});
