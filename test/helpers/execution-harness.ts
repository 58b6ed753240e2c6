import pino from 'pino';
import { afterEach } from 'vitest';
import { TiqsClient } from '../../src/api/tiqs-client.ts';
import { TradingCalendar } from '../../src/calendar/trading-calendar.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import type { PlaceIntent } from '../../src/domain/intents.ts';
import type { OrderEvent } from '../../src/domain/order-events.ts';
import {
  ExecutionEngine,
  type ExecutionEngineOptions,
} from '../../src/execution/execution-engine.ts';
import type { RunningSimulator, SimulatorOptions } from '../../src/sim/index.ts';
import { startSimulator } from '../../src/sim/index.ts';
import { SIM_HOLIDAYS } from '../../src/sim/sim-holidays.ts';

/** SBIN on NSE, as intents name it. */
const SBIN = {
  exchange: 'NSE',
  token: 3045,
  symbol: 'SBIN-EQ',
  lotSize: 1,
  tickSize: 5,
} as const;

/** A place intent of strategy `s1` (buy 10 SBIN at market unless changed). */
export const placeIntent = (
  id: string,
  extra: Partial<PlaceIntent> = {},
): PlaceIntent & { strategyId: string } => ({
  kind: 'place',
  strategyId: 's1',
  id,
  instrument: SBIN,
  side: 'B',
  quantity: 10,
  orderType: 'MKT',
  product: 'I',
  ...extra,
});

/** An execution engine over HTTP against a simulator on a virtual clock. */
export interface ExecutionHarness {
  clock: VirtualClock;
  sim: RunningSimulator;
  client: TiqsClient;
  engine: ExecutionEngine;
  events: OrderEvent[];
  /** A second engine on the same broker, e.g. after a restart. */
  newEngine(extra?: Partial<ExecutionEngineOptions>): {
    engine: ExecutionEngine;
    events: OrderEvent[];
  };
}

/** Starts a simulator at `start` (IST ISO) and an engine talking to it over loopback. */
export async function executionHarness(
  start: string,
  extra: Partial<ExecutionEngineOptions> = {},
  simOptions: SimulatorOptions = {},
): Promise<ExecutionHarness> {
  const clock = new VirtualClock(Date.parse(start));
  const sim = await startSimulator({ clock, seed: 3, rateLimits: false, ...simOptions });
  const client = new TiqsClient({
    fetch: countedFetch,
    baseUrl: sim.url,
    appId: 'sim-app',
    token: 'sim-token',
    clock,
    timeoutMs: 2_000,
    retry: { limit: 0 },
  });
  const newEngine = (more: Partial<ExecutionEngineOptions> = {}) => {
    const engine = new ExecutionEngine({
      broker: client,
      clock,
      logger: pino({ level: 'silent' }),
      sessions: TradingCalendar.fromHolidays(SIM_HOLIDAYS),
      trackIntervalMs: 1_000,
      unknownGraceMs: 5_000,
      ...extra,
      ...more,
    });
    const events: OrderEvent[] = [];
    engine.events$.subscribe((e) => events.push(e));
    return { engine, events };
  };
  const { engine, events } = newEngine();
  return { clock, sim, client, engine, events, newEngine };
}

/** Requests of harness clients whose answer has not come yet. */
let requestsOpen = 0;

/**
 * Fetch that counts requests in flight, so a test can wait for loopback I/O to settle
 * ({@link ioSettled}); give it to any client a test steps time around.
 */
export const countedFetch: typeof fetch = async (input, init) => {
  requestsOpen++;
  try {
    return await fetch(input, init);
  } finally {
    requestsOpen--;
  }
};

/**
 * Waits (real time, at most `realMs`) until no harness client has a request in flight,
 * twice in a row 2 ms apart (room for the next request to start). A test stepping
 * virtual time calls it before each step, so time moves only while the code under test
 * waits on timers, never while an answer is on its way, however slow the machine.
 */
export async function ioSettled(realMs = 10_000): Promise<void> {
  const give = Date.now() + realMs;
  for (let calm = 0; calm < 2; ) {
    if (Date.now() > give) throw new Error(`requests still in flight after ${realMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
    calm = requestsOpen === 0 ? calm + 1 : 0;
  }
}

/** Waits (real time, loopback I/O only) until `done()` holds; throws after ~2 s. */
export async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 2_000; i++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  throw new Error('until: the condition never held');
}

/**
 * Registers clean-up after each test (engine stopped, simulator closed) and returns the
 * start-up function the tests call.
 */
export function useExecutionHarness(): (
  ...args: Parameters<typeof executionHarness>
) => Promise<ExecutionHarness> {
  let current: ExecutionHarness | undefined;
  afterEach(async () => {
    await current?.engine.stop();
    await current?.sim.close();
    current = undefined;
  });
  return async (...args) => {
    current = await executionHarness(...args);
    return current;
  };
}
