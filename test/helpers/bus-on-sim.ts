import { afterEach, expect } from 'vitest';
import type { Pacer } from '../../src/api/pacing/pacer.ts';
import { TiqsClient } from '../../src/api/tiqs-client.ts';
import { TradingCalendar } from '../../src/calendar/trading-calendar.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { MarketDataBus, type MarketDataBusOptions } from '../../src/market-data/market-data-bus.ts';
import { memoryLogger } from '../../src/market-data/testing/fake-quote-source.ts';
import { type RunningSimulator, startSimulator } from '../../src/sim/index.ts';
import { SIM_HOLIDAYS } from '../../src/sim/sim-holidays.ts';

/** Friday 20 Nov 2026, 10:00 IST: inside the regular session. */
export const SESSION_START = Date.parse('2026-11-20T04:30:00Z');

/** `n` consecutive tokens from `from` (the simulator's NIFTY chain starts at 40 000). */
export const range = (from: number, n: number): number[] =>
  Array.from({ length: n }, (_, i) => from + i);

/** A simulator and a bus polling it through a non-retrying client, on one virtual clock. */
export interface BusOnSim {
  clock: VirtualClock;
  bus: MarketDataBus;
  sim: RunningSimulator;
  client: TiqsClient;
}

/**
 * Registers clean-up after each test (bus closed, simulator stopped) and returns the
 * start-up function; `pacer` replaces the client's own (e.g. one that never holds back).
 */
export function useBusOnSim(): (
  options?: Partial<MarketDataBusOptions>,
  pacer?: (clock: VirtualClock) => Pacer,
) => Promise<BusOnSim> {
  let running: BusOnSim | undefined;
  afterEach(async () => {
    running?.bus.close();
    await running?.sim.close();
    running = undefined;
  });
  return async (options = {}, pacer) => {
    const clock = new VirtualClock(SESSION_START);
    const sim = await startSimulator({ clock, seed: 5 });
    const client = new TiqsClient({
      baseUrl: sim.url,
      appId: 'sim-app',
      token: 'sim-token',
      clock,
      retry: { limit: 0 },
      ...(pacer === undefined ? {} : { pacer: pacer(clock) }),
    });
    const bus = new MarketDataBus({
      source: client,
      clock,
      sessions: TradingCalendar.fromHolidays(SIM_HOLIDAYS),
      logger: memoryLogger('warn').logger,
      intervalMs: 1_000,
      ...options,
    });
    running = { clock, bus, sim, client };
    return running;
  };
}

/** Waits (real time, for loopback I/O) until the bus has no request in flight; bounded. */
export async function busSettled(b: MarketDataBus): Promise<void> {
  for (let i = 0; i < 2_000 && b.stats.inFlightRequests > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  expect(b.stats.inFlightRequests).toBe(0);
}
