import { afterEach, describe, expect, it } from 'vitest';
import { TiqsClient } from '../../src/api/tiqs-client.ts';
import { TradingCalendar } from '../../src/calendar/trading-calendar.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import type { HealthEvent } from '../../src/market-data/health.ts';
import { MarketDataBus } from '../../src/market-data/market-data-bus.ts';
import { memoryLogger } from '../../src/market-data/testing/fake-quote-source.ts';
import { type RunningSimulator, startSimulator } from '../../src/sim/index.ts';
import { SIM_HOLIDAYS } from '../../src/sim/sim-holidays.ts';

/** Friday 20 Nov 2026, 10:00 IST: inside the regular session. */
const START = Date.parse('2026-11-20T04:30:00Z');
const BATCH = 50;

/** Option tokens of the simulator's NIFTY chain. */
const range = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);

let sim: RunningSimulator | undefined;
let bus: MarketDataBus | undefined;
afterEach(async () => {
  bus?.close();
  await sim?.close();
  sim = undefined;
  bus = undefined;
});

/** Waits (real time, for loopback I/O) until the bus has no request in flight. */
async function settle(b: MarketDataBus): Promise<void> {
  for (let i = 0; i < 2_000 && b.stats.inFlightRequests > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  expect(b.stats.inFlightRequests).toBe(0);
}

async function setUp(): Promise<{ clock: VirtualClock; client: TiqsClient }> {
  const clock = new VirtualClock(START);
  sim = await startSimulator({ clock, seed: 5 });
  const client = new TiqsClient({
    baseUrl: sim.url,
    appId: 'sim-app',
    token: 'sim-token',
    clock,
    retry: { limit: 0 },
  });
  bus = new MarketDataBus({
    source: client,
    clock,
    sessions: TradingCalendar.fromHolidays(SIM_HOLIDAYS),
    logger: memoryLogger('warn').logger,
    intervalMs: 1_000,
    batchSize: BATCH,
  });
  return { clock, client };
}

describe('market-data bus against the simulator over HTTP', () => {
  it('serves three strategies with 120 overlapping tokens in ⌈120/batch⌉ requests per second', async () => {
    const { clock } = await setUp();
    const b = bus as MarketDataBus;
    const s = sim as RunningSimulator;
    const strategies = [
      [...range(40_000, 60)],
      [...range(40_040, 60)],
      [...range(40_080, 40), ...range(40_000, 20)],
    ];
    expect(new Set(strategies.flat()).size).toBe(120);
    const received = strategies.map(() => new Set<number>());
    const subs = strategies.map((tokens, i) =>
      b.quotes$(tokens, 'ltp').subscribe((q) => received[i]?.add(q.token)),
    );

    const perSecond: number[] = [];
    let before = s.stats.count('quotes');
    for (let second = 0; second < 20; second++) {
      // The bus spaces a cycle's sends (125 ms apart by default): step through the second.
      for (let step = 0; step < 8; step++) {
        clock.advanceBy(second === 0 && step === 0 ? 0 : 125);
        await settle(b);
      }
      const now = s.stats.count('quotes');
      perSecond.push(now - before);
      before = now;
    }
    for (const sub of subs) sub.unsubscribe();

    // One merged poll, not one set per strategy (which would be 2 + 2 + 2 = 6 a second).
    expect(perSecond).toEqual(Array(20).fill(Math.ceil(120 / BATCH)));
    expect(Math.max(...perSecond)).toBeLessThanOrEqual(10);
    expect(s.stats.responses(429)).toBe(0);
    expect(received.map((r) => r.size)).toEqual([60, 60, 60]);
    expect(b.status).toBe('ok');
    expect(b.stats).toMatchObject({ quoteTokens: 0, pollGroups: 0, failedRequests: 0 });
  });

  it('pauses on a refused token without retrying and resumes with the new one', async () => {
    const { clock } = await setUp();
    const b = bus as MarketDataBus;
    const s = sim as RunningSimulator;
    const events: HealthEvent[] = [];
    b.health$.subscribe((e) => e.token === undefined && events.push(e));
    const sub = b.quotes$(range(40_000, 10), 'full').subscribe();
    clock.advanceBy(0);
    await settle(b);
    clock.advanceBy(1_000);
    await settle(b);
    expect(s.stats.count('quotes')).toBe(2);

    s.setCredentials({ token: 'next-day' });
    clock.advanceBy(1_000);
    await settle(b);
    expect(b.status).toBe('session-expired');
    const atExpiry = s.stats.count('quotes');
    for (let i = 0; i < 30; i++) {
      clock.advanceBy(1_000);
      await settle(b);
    }
    expect(s.stats.count('quotes')).toBe(atExpiry);

    b.setCredentials({ appId: 'sim-app', token: 'next-day' });
    clock.advanceBy(0);
    await settle(b);
    clock.advanceBy(1_000);
    await settle(b);
    expect(s.stats.count('quotes')).toBe(atExpiry + 2);
    expect(events.map((e) => e.status)).toEqual(['ok', 'session-expired', 'ok']);
    sub.unsubscribe();
  });
});
