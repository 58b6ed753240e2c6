import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import type { OrderEvent, Position } from '../../src/domain/order-events.ts';
import { MemoryJournal } from '../../src/execution/journal.ts';
import type { TrackedOrder } from '../../src/execution/tracked-order.ts';
import { Kernel } from '../../src/runtime/kernel.ts';
import { type RunningSimulator, startSimulator } from '../../src/sim/index.ts';

let sim: RunningSimulator | undefined;
let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.stop();
  await sim?.close();
  kernel = undefined;
  sim = undefined;
});

const root = process.cwd();
const MORNING = '2026-11-20T10:00:00+05:30';

/** The journal of an earlier run: intent `p1` of `probe` bought 10 SBIN at ₹800. */
function earlierRun(): MemoryJournal {
  const journal = new MemoryJournal();
  const at = Date.parse(MORNING) - 3_600_000;
  const order: TrackedOrder = {
    strategyId: 'probe',
    intentId: 'p1',
    tag: 'probe-old-1',
    variety: 'regular',
    intent: {
      kind: 'place',
      id: 'p1',
      instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
      side: 'B',
      quantity: 10,
      orderType: 'MKT',
      product: 'I',
    },
    request: {} as TrackedOrder['request'],
    orderId: '990001',
    status: 'complete',
    quantity: 10,
    filledQuantity: 10,
    fills: new Set(['f-old-1']),
    replacements: 0,
    modifications: 0,
    placedAt: at,
    acceptedSeen: true,
    openedSeen: true,
  };
  journal.commit({
    orders: [order],
    fill: {
      fillId: 'f-old-1',
      tag: order.tag,
      strategyId: 'probe',
      token: 3045,
      symbol: 'SBIN-EQ',
      side: 'B',
      quantity: 10,
      price: 80_000,
      at,
    },
    at,
  });
  return journal;
}

async function startKernel(strategies: string) {
  const lines: Array<Record<string, unknown>> = [];
  const clock = new VirtualClock(Date.parse(MORNING));
  sim = await startSimulator({ clock, seed: 11 });
  const config = parseConfig(
    `mode: paper
broker: { baseUrl: embedded }
strategies:
${strategies}
state: { dir: ${mkdtempSync(join(tmpdir(), 'tr-state-'))} }
logging: { summaryIntervalSeconds: 0 }
`,
    'config/test.yaml',
    {},
  );
  kernel = await Kernel.create({
    config,
    configFile: join(root, 'config', 'test.yaml'),
    logger: pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) }),
    clock,
    endpoint: { baseUrl: sim.url, appId: 'sim-app', token: 'sim-token' },
    journal: earlierRun(),
  });
  const events: OrderEvent[] = [];
  kernel.engine.events$.subscribe((e) => events.push(e));
  await kernel.start();
  const step = async () => {
    clock.advanceBy(1_000);
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 1));
  };
  return { kernel, events, step, lines };
}

describe('a restarted kernel', () => {
  it('shows recovered positions at setup and numbers fresh intents after the journal’s', async () => {
    // Checked to fail: without the kernel publishing recovered positions, the probe
    // sees []; without the seeded factory, its intent is `p1` and is denied as reused.
    const probe = globalThis as { positionsProbe?: Position[] };
    delete probe.positionsProbe;
    const seenAtSetup = (): Position[] | undefined => probe.positionsProbe;
    const { events, step } = await startKernel(
      `  - { id: probe, module: ${root}/test/fixtures/strategies/positions-probe.ts }`,
    );
    expect(seenAtSetup()?.map((p) => [p.symbol, p.netQuantity])).toEqual([['SBIN-EQ', 10]]);
    for (let i = 0; i < 5 && !events.some((e) => e.type === 'OrderFilled'); i++) await step();
    expect(events.filter((e) => e.type === 'OrderDenied')).toEqual([]);
    expect(events.find((e) => e.type === 'OrderSubmitted')?.intentId).toBe('p2');
    expect(events.some((e) => e.type === 'OrderFilled' && e.intentId === 'p2')).toBe(true);
  });

  it('stops a strategy that emits a non-intent, and the others go on', async () => {
    // Checked to fail: without the check at the kernel boundary, `undefined` reaches
    // the engine and throws reading 'kind'.
    const { kernel, events, step, lines } = await startKernel(
      [
        `  - { id: bad, module: ${root}/test/fixtures/strategies/emits-undefined.ts }`,
        `  - { id: probe, module: ${root}/test/fixtures/strategies/positions-probe.ts }`,
      ].join('\n'),
    );
    for (let i = 0; i < 5 && !events.some((e) => e.type === 'OrderFilled'); i++) await step();
    expect(kernel.strategyStatus()).toEqual({ bad: 'failed', probe: 'running' });
    expect(events.some((e) => e.type === 'OrderFilled' && e.strategyId === 'probe')).toBe(true);
    const failure = lines.find((l) => l.strategy === 'bad' && l.level === 50);
    expect(failure?.msg).toBe('strategy failed and was stopped; the others keep running');
    expect((failure?.err as { message?: string } | undefined)?.message).toMatch(
      /^strategy "bad" emitted undefined is not an intent/,
    );
  });
});
