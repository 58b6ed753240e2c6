import { describe, expect, it } from 'vitest';
import { runBus } from './testing/marble-bus.ts';

/** The most requests seen in any window `(t - windowMs, t]`. */
function busiestWindow(times: readonly number[], windowMs = 1_000): number {
  let most = 0;
  for (const t of times)
    most = Math.max(most, times.filter((u) => u > t - windowMs && u <= t).length);
  return most;
}

const tokens = (n: number, from = 1): number[] => Array.from({ length: n }, (_, i) => from + i);

describe('MarketDataBus: pacing', () => {
  it('keeps the configured interval when the plan fits the budget, without a warning', () => {
    const kit = runBus(
      { intervalMs: 1_000, batchSize: 10, quoteRequestsPerSecond: 10 },
      {},
      10_000,
      ({ bus, helpers }) => {
        const sub = bus.quotes$(tokens(30), 'ltp').subscribe();
        helpers.cold('5s |').subscribe({ complete: () => sub.unsubscribe() });
      },
    );
    // Three batches a cycle, spaced 100 ms apart rather than sent in one burst.
    expect(kit.source.calls.map((c) => c.at)).toEqual(
      [0, 1_000, 2_000, 3_000, 4_000].flatMap((t) => [t, t + 100, t + 200]),
    );
    expect(kit.log.lines.filter((l) => l.level === 40)).toEqual([]);
  });

  it('stretches the interval when batches exceed the budget, warns once, never exceeds it', () => {
    const kit = runBus(
      { intervalMs: 1_000, batchSize: 1, quoteRequestsPerSecond: 10 },
      {},
      30_000,
      ({ bus, helpers }) => {
        const sub = bus.quotes$(tokens(12), 'ltp').subscribe();
        helpers.cold('12s |').subscribe({
          complete: () => {
            expect(bus.effectiveIntervalMs(1_000)).toBe(1_200);
            sub.unsubscribe();
          },
        });
      },
    );
    const times = kit.source.calls.map((c) => c.at);
    expect(busiestWindow(times)).toBe(10);
    // 12 s at 10 requests/s, give or take the first burst.
    expect(times.length).toBeGreaterThanOrEqual(110);
    expect(times.length).toBeLessThanOrEqual(121);
    const warnings = kit.log.lines.filter((l) => l.level === 40);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/stretched ×1\.20/);
  });

  it('shares one budget between loops of different intervals', () => {
    const kit = runBus(
      { intervalMs: 1_000, batchSize: 1, quoteRequestsPerSecond: 10 },
      {},
      30_000,
      ({ bus, helpers }) => {
        const a = bus.quotes$(tokens(8), 'ltp').subscribe();
        const b = bus.quotes$(tokens(2, 100), 'ltp', { intervalMs: 500 }).subscribe();
        helpers.cold('10s |').subscribe({
          complete: () => {
            // 8/s + 2 per 500 ms = 12/s against 10/s: both stretch by 1.2.
            expect(bus.effectiveIntervalMs(1_000)).toBe(1_200);
            expect(bus.effectiveIntervalMs(500)).toBe(600);
            a.unsubscribe();
            b.unsubscribe();
          },
        });
      },
    );
    expect(busiestWindow(kit.source.calls.map((c) => c.at))).toBeLessThanOrEqual(10);
    expect(kit.log.lines.filter((l) => l.level === 40)).toHaveLength(1);
  });

  it('polls a token wanted at two intervals only at the faster one when its mode covers', () => {
    const kit = runBus({ intervalMs: 10 }, {}, 100, ({ bus, helpers }) => {
      const a = bus.quote$(1, 'full', { intervalMs: 10 }).subscribe();
      const b = bus.quote$(1, 'ltp', { intervalMs: 20 }).subscribe();
      helpers.cold('45ms |').subscribe({
        complete: () => {
          a.unsubscribe();
          b.unsubscribe();
        },
      });
    });
    expect(kit.source.calls.map((c) => `${c.at}:${c.mode}`)).toEqual([
      '0:full',
      '10:full',
      '20:full',
      '30:full',
      '40:full',
    ]);
  });
});

describe('MarketDataBus: the service limit holds as the service counts it', () => {
  it('keeps ≤ 10 arrivals per sliding second at batchSize 10, with probes and retries, under jitter', () => {
    const bad = new Set([7, 55, 123]);
    const kit = runBus(
      {
        intervalMs: 1_000,
        batchSize: 10,
        // The real defaults, not the marble tests' loose budget.
        quoteRequestsPerSecond: 9,
        serviceQuoteLimitPerSecond: 10,
        jitterMarginMs: 250,
        rejectedRetryMs: 2_000,
      },
      {
        // A refusal that names nobody: only bisection can find the culprits.
        fail: (c) =>
          c.tokens.some((t) => bad.has(t))
            ? Object.assign(new Error('HTTP 404'), { status: 404 })
            : undefined,
      },
      60_000,
      ({ bus, helpers }) => {
        const sub = bus.quotes$(tokens(150), 'ltp').subscribe();
        helpers.cold('30s |').subscribe({
          complete: () => {
            expect(bus.rejectedTokenList()).toEqual([7, 55, 123]);
            sub.unsubscribe();
          },
        });
      },
    );
    const sends = kit.source.calls.map((c) => c.at);
    // Regular polls, bisection probes and solo retries all went out.
    expect(sends.length).toBeGreaterThan(200);
    expect(kit.source.calls.filter((c) => c.tokens.length === 1).length).toBeGreaterThan(10);
    const gaps = sends.slice(1).map((t, i) => t - (sends[i] as number));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(125);
    expect(busiestWindow(sends)).toBeLessThanOrEqual(8);
    // Arrivals at the service: each send delayed by anything below the 250 ms margin.
    let seed = 7;
    const jitter = (): number => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return (seed / 2 ** 31) * 249;
    };
    const patterns = [
      sends.map((t) => t + jitter()),
      // Adversarial: every other request as slow as the margin allows.
      sends.map((t, i) => t + (i % 2 === 0 ? 249 : 0)),
      sends.map((t, i) => t + (i % 9 === 0 ? 0 : 249)),
    ];
    for (const arrivals of patterns) {
      expect(busiestWindow([...arrivals].sort((a, b) => a - b))).toBeLessThanOrEqual(10);
    }
  });
});

describe('MarketDataBus: a cycle that overruns its interval', () => {
  it('is followed at once when it ends, not an interval later', () => {
    // Answers take 15 ms against a 10 ms interval: the heartbeat at 10 finds the cycle
    // still out, so the next one starts when it settles (15), and so on.
    const kit = runBus({ intervalMs: 10 }, { quoteLatencyMs: 15 }, 200, ({ bus, helpers }) => {
      const sub = bus.quote$(1, 'ltp').subscribe();
      helpers.cold('50ms |').subscribe({ complete: () => sub.unsubscribe() });
    });
    expect(kit.source.calls.map((c) => c.at)).toEqual([0, 15, 30, 45]);
  });
});
