import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import { RateLimiter } from './rate-limiter.ts';

async function admittedTimes(clock: VirtualClock, limiter: RateLimiter, n: number, until: number) {
  const times: number[] = [];
  const all = Array.from({ length: n }, () =>
    limiter.acquire().then(() => times.push(clock.now())),
  );
  await clock.advanceToAsync(until);
  await Promise.all(all);
  return times;
}

describe('RateLimiter', () => {
  it('admits 10 at once, then one more only as the 1 s window slides', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock, [{ limit: 10, intervalMs: 1_000 }]);
    const times = await admittedTimes(clock, limiter, 25, 5_000);
    expect(times.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(times.slice(10, 20)).toEqual(Array(10).fill(1_000));
    expect(times.slice(20)).toEqual(Array(5).fill(2_000));
  });

  it('never exceeds any of several windows', async () => {
    const clock = new VirtualClock(0);
    const windows = [
      { limit: 10, intervalMs: 1_000 },
      { limit: 200, intervalMs: 60_000 },
    ];
    const limiter = new RateLimiter(clock, windows);
    const times = await admittedTimes(clock, limiter, 230, 130_000);
    expect(times).toHaveLength(230);
    for (const w of windows) {
      for (let i = 0; i + w.limit < times.length; i++) {
        // The (limit+1)-th admission after any admission is at least a window later.
        expect((times[i + w.limit] ?? 0) - (times[i] ?? 0)).toBeGreaterThanOrEqual(w.intervalMs);
      }
    }
    // The 201st waits for the minute window, not just the second window.
    expect(times[200]).toBe(60_000);
  });

  it('keeps FIFO order and lets an aborted waiter leave the queue', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock, [{ limit: 1, intervalMs: 100 }]);
    const order: string[] = [];
    await limiter.acquire();
    const ac = new AbortController();
    const a = limiter.acquire().then(() => order.push('a'));
    const b = limiter.acquire(ac.signal).then(
      () => order.push('b'),
      () => order.push('b-aborted'),
    );
    const c = limiter.acquire().then(() => order.push('c'));
    expect(limiter.queued).toBe(3);
    ac.abort();
    await clock.advanceByAsync(1_000);
    await Promise.all([a, b, c]);
    expect(order).toEqual(['b-aborted', 'a', 'c']);
  });

  it('reports the delay until free', async () => {
    const clock = new VirtualClock(0);
    const limiter = new RateLimiter(clock, [{ limit: 2, intervalMs: 1_000 }]);
    await limiter.acquire();
    clock.advanceBy(300);
    await limiter.acquire();
    expect(limiter.delayUntilFree()).toBe(700);
  });
});
