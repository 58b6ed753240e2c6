import { afterEach, describe, expect, it } from 'vitest';
import { Pacer } from '../../src/api/pacing/pacer.ts';
import { TiqsClient } from '../../src/api/tiqs-client.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { type RunningSimulator, startSimulator } from '../../src/sim/http/start-simulator.ts';
import * as fx from '../helpers/fixtures.ts';

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const START = Date.parse('2026-11-20T10:00:00+05:30');

// How I checked it can fail: with order operations thrown on their first 429 (the old
// "sent once" rule) about a third of the placements were lost (rejected with HTTP 429);
// with the resend under a fresh tag, the book held more orders than tags.
describe('TiqsClient against the simulator throttling placements', () => {
  // (A hostile Retry-After is covered against a scripted service: here, with 25 calls in
  // flight on one auto-advancing clock, one call's long wait would jump the others' time.)
  it.each(['1'])(
    'gets every placement accepted exactly once (Retry-After %s)',
    async (retryAfter) => {
      const clock = new VirtualClock(START, { auto: true });
      sim = await startSimulator({
        clock,
        seed: 9,
        hours: 'always-open',
        faults: { throttleRate: 0.3, throttleRetryAfter: retryAfter, routes: ['placeOrder'] },
      });
      const client = new TiqsClient({
        baseUrl: sim.url,
        appId: 'sim-app',
        token: 'sim-token',
        clock,
        pacer: new Pacer(clock),
      });
      const n = 25;
      const results = await Promise.allSettled(
        Array.from({ length: n }, (_, i) =>
          client.placeOrder('regular', {
            ...fx.placeBody,
            order: 'MKT',
            price: '0',
            tags: `t-${i}`,
          }),
        ),
      );
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
      // The faults were really injected, else this proves nothing.
      expect(sim.stats.responses(429)).toBeGreaterThan(0);
      const tags = sim.exchange.orderBook().map((o) => o.tags);
      expect(tags.sort()).toEqual(Array.from({ length: n }, (_, i) => `t-${i}`).sort());
      // Bounded: pacing (25 at 10 per 1.25 s) plus at most the 20 s throttle deadline.
      expect(clock.now() - START).toBeLessThanOrEqual(2_500 + 20_000 + 1_250);
    },
  );
});
