import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { countedFetch, ioSettled } from '../../../test/helpers/execution-harness.ts';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import { parseConfig } from '../../config/load-config.ts';
import type { OrderEvent } from '../../domain/order-events.ts';
import type { ExitGivenUp } from '../../execution/exit-retries.ts';
import { MemoryJournal } from '../../execution/journal.ts';
import type { StaleEvent } from '../../market-data/health.ts';
import { Kernel } from '../../runtime/kernel.ts';
import { type RunningSimulator, startSimulator } from '../../sim/index.ts';
import type { Alert } from './alert.ts';
import { watchKernel } from './kernel-alerts.ts';

const root = process.cwd();
let kernel: Kernel | undefined;
let sim: RunningSimulator | undefined;
afterEach(async () => {
  await kernel?.stop();
  await sim?.close();
  kernel = sim = undefined;
});

describe('watchKernel on a paper kernel (virtual clock)', () => {
  it('alerts each fill in words and sends one daily summary when the market closes', async () => {
    const clock = new VirtualClock(Date.parse('2026-11-20T15:25:00+05:30'));
    sim = await startSimulator({ clock, seed: 11 });
    const config = parseConfig(
      `mode: paper
strategies:
  - id: flat
    module: ${root}/test/fixtures/strategies/buy-when-flat.ts
execution: { squareOffMinutesBeforeClose: 0 }
state: { dir: ${mkdtempSync(join(tmpdir(), 'tr-alerts-'))} }
logging: { summaryIntervalSeconds: 0 }
`,
      'c.yaml',
      {},
    );
    const k = await Kernel.create({
      config,
      configFile: join(root, 'config', 'test.yaml'),
      logger: pino({ level: 'silent' }),
      clock,
      endpoint: { baseUrl: sim.url, appId: 'sim-app', token: 'sim-token' },
      fetch: countedFetch,
      journal: new MemoryJournal(),
    });
    kernel = k;
    const alerts: Alert[] = [];
    const sub = watchKernel(k, (a) => alerts.push(a), { staleAfterMs: 3_600_000 });
    await k.start();
    for (let i = 0; i < 40; i++) {
      clock.advanceBy(10_000);
      await ioSettled();
    }
    sub.unsubscribe();
    const fills = alerts.filter((a) => a.kind === 'fill');
    expect(fills).toHaveLength(1);
    expect(fills[0]?.text).toMatch(/^flat {2}BUY 10 SBIN-EQ @ ₹[\d,]+\.\d\d filled \(order \d+\)$/);
    const summaries = alerts.filter((a) => a.kind === 'daily-summary');
    expect(summaries).toHaveLength(1);
    const summary = summaries[0] as Alert;
    // Sent in the first poll after 15:30 IST.
    expect(summary.at).toBeGreaterThanOrEqual(Date.parse('2026-11-20T15:30:00+05:30'));
    expect(summary.at).toBeLessThan(Date.parse('2026-11-20T15:30:02+05:30'));
    expect(summary.text).toMatch(
      /^daily summary \(paper\): 1 fill\(s\); total realised ₹0\.00, unrealised/,
    );
    expect(summary.text).toContain('  flat: realised ₹0.00');
    expect(summary.text).toMatch(/SBIN-EQ \+10 @ ₹[\d,]+\.\d\d \(flat, unrealised/);
  });
});

/** The parts of a kernel the watcher reads, driven by hand. */
function stubKernel(clock: VirtualClock) {
  const events = new Subject<OrderEvent>();
  const stale = new Subject<StaleEvent>();
  const givenUp = new Subject<ExitGivenUp>();
  const state = {
    killed: false,
    pausedReason: undefined as string | undefined,
    strategies: { a: 'running', b: 'running' } as Record<string, string>,
    open: false,
  };
  const totals = { realised: -250_000, unrealised: 0 };
  const kernel = {
    clock,
    config: { mode: 'paper', risk: { flattenOnKill: true } },
    engine: {
      events$: events,
      exitsGivenUp$: givenUp,
      get killed() {
        return state.killed;
      },
      get pausedReason() {
        return state.pausedReason;
      },
      positions: { totals: () => totals, positions: () => [] },
    },
    bus: { stale$: stale },
    instruments: { byToken: (t: number) => (t === 3045 ? { symbol: 'SBIN-EQ' } : undefined) },
    calendarStore: { calendar: { isOpen: () => state.open } },
    strategyStatus: () => state.strategies,
    strategyFailures: () => (state.strategies.b === 'failed' ? { b: 'boom: no such column' } : {}),
  } as unknown as Kernel;
  return { kernel, events, stale, givenUp, state };
}

describe('watchKernel transitions (stub kernel, virtual clock)', () => {
  it('alerts the kill switch, a refused session and its resume, a failed strategy, and stale data past the threshold once', () => {
    const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
    const { kernel: k, events, stale, state } = stubKernel(clock);
    const alerts: Alert[] = [];
    const sub = watchKernel(k, (a) => alerts.push(a), { staleAfterMs: 60_000, pollMs: 1_000 });
    const kinds = () => alerts.map((a) => a.kind);

    events.next({
      type: 'OrderRejected',
      strategyId: 'a',
      intentId: 'a-1',
      tag: 't1',
      orderId: '77',
      at: clock.now(),
      reason: 'insufficient margin',
    });
    expect(alerts.at(-1)?.text).toBe('a  order a-1 rejected: insufficient margin (order 77)');

    state.killed = true;
    clock.advanceBy(1_000);
    expect(kinds()).toEqual(['rejection', 'kill-switch']);
    expect(alerts.at(-1)?.text).toContain('realised -₹2,500.00');
    clock.advanceBy(5_000);
    expect(kinds()).toHaveLength(2);

    state.pausedReason = 'market data: credentials refused';
    clock.advanceBy(1_000);
    state.pausedReason = undefined;
    clock.advanceBy(1_000);
    expect(alerts.slice(-2).map((a) => a.text)).toEqual([
      'session refused: trading and market data paused until a new token arrives (market data: credentials refused)',
      'session resumed with the new token: trading goes on',
    ]);

    state.strategies = { a: 'running', b: 'failed' };
    clock.advanceBy(3_000);
    expect(alerts.filter((a) => a.kind === 'strategy-error').map((a) => a.text)).toEqual([
      'strategy b stopped by an error: boom: no such column (the others keep running; see the log)',
    ]);

    const before = alerts.length;
    stale.next({ token: 3045, stale: true, at: clock.now(), lastFreshAt: clock.now() - 3_000 });
    clock.advanceBy(56_000);
    expect(alerts).toHaveLength(before);
    clock.advanceBy(1_000);
    expect(alerts.at(-1)?.text).toBe('market data stale for over 60 s: SBIN-EQ');
    clock.advanceBy(120_000);
    expect(alerts).toHaveLength(before + 1);
    stale.next({ token: 3045, stale: false, at: clock.now(), lastFreshAt: clock.now() });
    expect(alerts.at(-1)?.text).toBe('market data fresh again: SBIN-EQ');
    sub.unsubscribe();
  });

  it('alerts a square-off exit given up on, naming the position that may be open', () => {
    const clock = new VirtualClock(Date.parse('2026-11-20T15:21:00+05:30'));
    const { kernel: k, givenUp } = stubKernel(clock);
    const alerts: Alert[] = [];
    const sub = watchKernel(k, (a) => alerts.push(a), { staleAfterMs: 60_000, pollMs: 1_000 });
    const given: ExitGivenUp = {
      strategyId: 'a',
      token: 3045,
      intentId: 'auto-eod-1',
      refusals: 6,
      reason: 'refused on every try: RMS: margin shortfall',
      at: clock.now(),
    };
    givenUp.next(given);
    expect(alerts).toEqual([
      {
        kind: 'square-off-failed',
        at: given.at,
        text: 'a  square-off of SBIN-EQ given up after 6 refusal(s): the position may still be OPEN, close it by hand (refused on every try: RMS: margin shortfall)',
        data: { exitGivenUp: given },
      },
    ]);
    sub.unsubscribe();
  });

  it('sends the daily summary once a day, when a session ends, never while closed before the open', () => {
    const clock = new VirtualClock(Date.parse('2026-11-20T08:00:00+05:30'));
    const { kernel: k, state } = stubKernel(clock);
    const alerts: Alert[] = [];
    const sub = watchKernel(k, (a) => alerts.push(a), { staleAfterMs: 60_000, pollMs: 1_000 });
    const summaries = () => alerts.filter((a) => a.kind === 'daily-summary');
    clock.advanceBy(60_000);
    expect(summaries()).toHaveLength(0);
    state.open = true;
    clock.advanceBy(60_000);
    state.open = false;
    clock.advanceBy(1_000);
    expect(summaries()).toHaveLength(1);
    expect(summaries()[0]?.text).toMatch(
      /^daily summary \(paper\): 0 fill\(s\); total realised -₹2,500\.00/,
    );
    // A second session the same day (Muhurat) ends without a second summary.
    state.open = true;
    clock.advanceBy(5_000);
    state.open = false;
    clock.advanceBy(5_000);
    expect(summaries()).toHaveLength(1);
    sub.unsubscribe();
  });
});
