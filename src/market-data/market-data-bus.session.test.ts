import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { MarketSessions } from '../domain/market-sessions.ts';
import { runBus, T0 } from './testing/marble-bus.ts';

/** Two sessions: [100, 200) and [400, 500) ms after frame 0. */
const sessions: MarketSessions = {
  isOpen: (at) => {
    const t = at - T0;
    return (t >= 100 && t < 200) || (t >= 400 && t < 500);
  },
  nextOpen: (after) => {
    const t = after - T0;
    if (t < 100) return T0 + 100;
    if (t < 400) return T0 + 400;
    return undefined;
  },
  nextClose: (after) => {
    const t = after - T0;
    if (t < 200) return T0 + 200;
    if (t < 500) return T0 + 500;
    return undefined;
  },
};

const range = (from: number, to: number, step: number): number[] =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);

describe('MarketDataBus: session gating', () => {
  it('polls only in sessions plus the warm-up, sleeps between them and resumes by itself', () => {
    const kit = runBus(
      { intervalMs: 10, warmupMs: 20, sessions, closedRecheckMs: 1_000 },
      {},
      700,
      ({ bus, helpers }) => {
        const sub = bus.quote$(1, 'ltp').subscribe();
        helpers.cold('650ms |').subscribe({ complete: () => sub.unsubscribe() });
      },
    );
    expect(kit.source.calls.map((c) => c.at)).toEqual([
      ...range(80, 190, 10),
      ...range(380, 490, 10),
    ]);
  });

  it('does not call tokens stale across the closed hours', () => {
    runBus(
      { intervalMs: 10, warmupMs: 0, sessions, staleAfterIntervals: 2 },
      {},
      700,
      ({ bus, helpers }) => {
        helpers.expectObservable(bus.stale$.pipe(map((e) => e.stale)), '^ 600ms !').toBe('');
        const sub = bus.quote$(1, 'ltp').subscribe();
        helpers.cold('600ms |').subscribe({ complete: () => sub.unsubscribe() });
      },
    );
  });
});
