import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { backtestSectionSchema } from '../../src/backtest/backtest-spec.ts';
import { type IntentRecord, runBacktest } from '../../src/backtest/run-backtest.ts';
import { simExchangeSource } from '../../src/backtest/sim-exchange-source.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import type { OrderEvent } from '../../src/domain/order-events.ts';
import { Kernel } from '../../src/runtime/kernel.ts';
import { SimExchange } from '../../src/sim/sim-exchange.ts';
import type { PlotPoint } from '../../src/strategy/strategy-context.ts';

const START = Date.parse('2026-11-20T09:13:00+05:30');
const END = Date.parse('2026-11-20T11:30:00+05:30');

/**
 * The four v2 examples (candles, target, brackets, instruments, plots) side by side. The
 * window ends on a candle's close, where rsi-reversion has a buy in flight: the backtest's
 * stop must settle it (it used to wait for ever on the stopped virtual clock).
 */
const configText = (stateDir: string) => `
mode: paper
marketData: { intervalMs: 2000 }
strategies:
  - id: sma
    module: ../strategies/sma-crossover.ts
    params: { fast: 3, slow: 8, quantity: 20 }
  - id: orb
    module: ../strategies/opening-range-breakout.ts
    params: { symbol: RELIANCE-EQ, rangeMinutes: 5, quantity: 5, stopPoints: 300 }
  - id: straddle
    module: ../strategies/index-short-straddle.ts
    params: { entryTime: "09:20", exitDelta: 0.05 }
  - id: rsi
    module: ../strategies/rsi-reversion.ts
    params: { period: 5, quantity: 5 }
recording:
  instruments: [{ token: 3045, mode: full }, { token: 2885, mode: full }]
paper: { latencyMs: 200, slippageTicks: 1 }
state: { dir: ${stateDir} }
logging: { level: silent, summaryIntervalSeconds: 0 }
`;

const key = (i: IntentRecord): string => JSON.stringify([i.at, i.strategyId, i.kind, i.id]);
const fillKey = (f: {
  at: number;
  intentId: string;
  fillQuantity?: number;
  quantity?: number;
  fillPrice?: number;
  price?: number;
}) => [f.at, f.intentId, f.fillQuantity ?? f.quantity, f.fillPrice ?? f.price].join(':');

describe('parity of the example strategies: paper on the simulator vs a backtest of its recording', () => {
  it('emits the same intents, gets the same fills and plots the same values', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tr-parity-examples-'));
    const data = join(dir, 'recording');
    const config = parseConfig(configText(join(dir, 'state')), 'config/parity.yaml', {});
    const configFile = resolve('config/parity.yaml');
    const clock = new VirtualClock(START);
    const kernel = await Kernel.create({
      config,
      configFile,
      logger: pino({ level: 'silent' }),
      clock,
      source: simExchangeSource(new SimExchange({ clock, seed: 42 })),
      recordTo: data,
    });
    const intents: IntentRecord[] = [];
    const fills: OrderEvent[] = [];
    const plots: PlotPoint[] = [];
    kernel.intents$.subscribe((i) => intents.push(i));
    kernel.plots$.subscribe((p) => plots.push(p));
    kernel.engine.events$.subscribe((e) => {
      if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled') fills.push(e);
    });
    await kernel.start();
    await clock.advanceToAsync(END);
    // The stop settles what is in flight on the (virtual) clock: keep it moving meanwhile.
    let stopped = false;
    const stopping = kernel.stop().then(() => {
      stopped = true;
    });
    for (let i = 0; i < 600 && !stopped; i++) await clock.advanceByAsync(1_000);
    await stopping;

    const result = await runBacktest({
      file: configFile,
      name: 'parity-examples',
      projectDir: process.cwd(),
      config,
      backtest: backtestSectionSchema.parse({
        data,
        from: new Date(START).toISOString(),
        to: new Date(END).toISOString(),
        logLevel: 'silent',
      }),
    });
    // Not vacuous: every example acted, and brackets' legs filled.
    for (const id of ['sma', 'orb', 'straddle', 'rsi'])
      expect(intents.filter((i) => i.strategyId === id).length).toBeGreaterThan(0);
    expect(fills.some((f) => f.intentId.includes('/'))).toBe(true);
    expect(result.strategies).toEqual({
      sma: 'stopped',
      orb: 'stopped',
      straddle: 'stopped',
      rsi: 'stopped',
    });
    expect(result.intents.map(key)).toEqual(intents.map(key));
    expect(result.fills.map(fillKey)).toEqual(fills.map((f) => fillKey(f as never)));
    expect(result.plots).toEqual(plots);
  }, 60_000);
});
