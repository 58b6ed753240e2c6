import { describe, expect, it } from 'vitest';
import { Pacer } from '../../src/api/pacing/pacer.ts';
import { DEFAULT_RATE_LIMITS } from '../../src/api/pacing/rate-limits.ts';
import type { VirtualClock } from '../../src/clock/virtual-clock.ts';
import type { HealthEvent } from '../../src/market-data/health.ts';
import type { MarketDataBus, MarketDataBusOptions } from '../../src/market-data/market-data-bus.ts';
import { busSettled, range, SESSION_START, useBusOnSim } from '../helpers/bus-on-sim.ts';

const BAD = 1;

const setUpBus = useBusOnSim();

/** Moves virtual time in small steps, letting each spaced send reach the simulator. */
async function advance(clock: VirtualClock, b: MarketDataBus, ms: number, step = 25) {
  for (let done = 0; done < ms; done += step) {
    clock.advanceBy(Math.min(step, ms - done));
    await busSettled(b);
  }
}

/** A bus on the simulator whose client pacer never holds a quote back: the bus's own budget must hold. */
async function setUp(options: Partial<MarketDataBusOptions>) {
  const { clock, bus, sim } = await setUpBus(
    options,
    (clock) =>
      new Pacer(clock, { ...DEFAULT_RATE_LIMITS, quote: [{ limit: 1_000, intervalMs: 1_000 }] }),
  );
  return { clock, b: bus, s: sim };
}

describe('market-data bus against the simulator: tokens the service rejects', () => {
  it('one unknown token among 50: the other 49 get quotes the next interval; it is reported', async () => {
    const { clock, b, s } = await setUp({ batchSize: 50, rejectedRetryMs: 60_000 });
    const tokens = [BAD, ...range(40_000, 49)];
    const events: HealthEvent[] = [];
    b.health$.subscribe((e) => events.push(e));
    const got = new Map<number, number[]>();
    const sub = b.quotes$(tokens, 'ltp').subscribe((q) => {
      got.set(q.token, [...(got.get(q.token) ?? []), q.receivedAt]);
    });

    clock.advanceBy(0);
    await busSettled(b);
    // The service refused the whole batch (404 naming the token); nobody got a quote.
    expect(s.stats.responses(404)).toBe(1);
    expect(got.size).toBe(0);

    await advance(clock, b, 1_000);
    // The very next interval: all 49 valid tokens, in one request, at SESSION_START + 1 s.
    expect([...got.keys()].sort((x, y) => x - y)).toEqual(range(40_000, 49));
    for (const times of got.values()) expect(times).toEqual([SESSION_START + 1_000]);
    // The batch, the named token checked alone one budget slot later, the 49.
    expect(s.stats.count('quotes')).toBe(3);
    expect(s.stats.responses(404)).toBe(2);
    expect(b.tokenHealth(BAD)).toBe('rejected');
    expect(b.rejectedTokenList()).toEqual([BAD]);
    expect(events.filter((e) => e.token === BAD).map((e) => e.status)).toEqual(['rejected']);
    expect(b.status).toBe('degraded');

    // It stays aside without costing a request a second: 10 more seconds, 10 requests.
    await advance(clock, b, 10_000, 125);
    expect(s.stats.count('quotes')).toBe(13);
    expect(s.stats.responses(404)).toBe(2);
    expect(got.get(40_000)?.length).toBeGreaterThanOrEqual(1);
    expect(b.tokenHealth(40_000)).toBe('ok');
    sub.unsubscribe();
  });

  it('never meets a 429 at batchSize 10 with 300 tokens, bad ones included, client pacer off', async () => {
    const { clock, b, s } = await setUp({ batchSize: 10, rejectedRetryMs: 3_000 });
    // 300 tokens: 30 requests a cycle against 8 a second; three unknown tokens among them.
    const tokens = [...range(40_000, 200), ...range(60_000, 97), 1, 2, 3];
    const received = new Set<number>();
    const sub = b.quotes$(tokens, 'ltp').subscribe((q) => received.add(q.token));
    await advance(clock, b, 20_000);
    expect(b.rejectedTokenList()).toEqual([1, 2, 3]);
    sub.unsubscribe();

    expect(s.stats.responses(429)).toBe(0);
    expect(received.size).toBe(297);
    // Solo retries of the three happened too (each at least twice in 20 s), all within
    // the same budget.
    expect(s.stats.responses(404)).toBeGreaterThanOrEqual(1 + 3 * 2);
    // Well used: about 8 a second over 20 s.
    expect(s.stats.count('quotes')).toBeGreaterThanOrEqual(150);
  });
});
