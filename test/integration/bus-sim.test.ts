import { describe, expect, it } from 'vitest';
import type { HealthEvent } from '../../src/market-data/health.ts';
import { busSettled, range, useBusOnSim } from '../helpers/bus-on-sim.ts';

const BATCH = 50;

const setUpBus = useBusOnSim();
const setUp = () => setUpBus({ batchSize: BATCH });

describe('market-data bus against the simulator over HTTP', () => {
  it('serves three strategies with 120 overlapping tokens in ⌈120/batch⌉ requests per second', async () => {
    const { clock, bus: b, sim: s } = await setUp();
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
        await busSettled(b);
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
    const { clock, bus: b, sim: s } = await setUp();
    const events: HealthEvent[] = [];
    b.health$.subscribe((e) => e.token === undefined && events.push(e));
    const sub = b.quotes$(range(40_000, 10), 'full').subscribe();
    clock.advanceBy(0);
    await busSettled(b);
    clock.advanceBy(1_000);
    await busSettled(b);
    expect(s.stats.count('quotes')).toBe(2);

    s.setCredentials({ token: 'next-day' });
    clock.advanceBy(1_000);
    await busSettled(b);
    expect(b.status).toBe('session-expired');
    const atExpiry = s.stats.count('quotes');
    for (let i = 0; i < 30; i++) {
      clock.advanceBy(1_000);
      await busSettled(b);
    }
    expect(s.stats.count('quotes')).toBe(atExpiry);

    b.setCredentials({ appId: 'sim-app', token: 'next-day' });
    clock.advanceBy(0);
    await busSettled(b);
    clock.advanceBy(1_000);
    await busSettled(b);
    expect(s.stats.count('quotes')).toBe(atExpiry + 2);
    expect(events.map((e) => e.status)).toEqual(['ok', 'session-expired', 'ok']);
    sub.unsubscribe();
  });
});
