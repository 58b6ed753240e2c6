import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { Position } from '../domain/order-events.ts';
import { PositionUpdates } from './position-updates.ts';

/** A book whose positions are counted as they are built. */
function book() {
  const state = { net: 0, builds: 0 };
  const read = (): Position[] => {
    state.builds += 1;
    return state.net === 0
      ? []
      : [
          {
            strategyId: 's',
            token: 3045,
            symbol: 'SBIN-EQ',
            netQuantity: state.net,
            averagePrice: 80_000,
            realised: 0,
            unrealised: 0,
            lastPrice: 80_000,
          },
        ];
  };
  return { state, updates: new PositionUpdates(read) };
}

describe('PositionUpdates', () => {
  it('builds nothing while nobody listens, however often the positions change', () => {
    const { state, updates } = book();
    for (let i = 0; i < 1_000; i++) updates.changed();
    expect(state.builds).toBe(0);
  });

  it('greets a late subscriber with the positions as they stand, built once', () => {
    const { state, updates } = book();
    state.net = 10;
    updates.changed();
    state.net = 25;
    updates.changed();
    const seen: number[][] = [];
    updates.positions$.subscribe((ps) => seen.push(ps.map((p) => p.netQuantity)));
    expect(seen).toEqual([[25]]);
    expect(state.builds).toBe(1);
    // A second subscriber while nothing changed: the same list, not built again.
    const again: number[][] = [];
    updates.positions$
      .pipe(map((ps) => ps.map((p) => p.netQuantity)))
      .subscribe((q) => again.push(q));
    expect(again).toEqual([[25]]);
    expect(state.builds).toBe(1);
  });

  it('sends each change to a subscriber at once, and stops building when it leaves', () => {
    const { state, updates } = book();
    const seen: number[][] = [];
    const sub = updates.positions$.subscribe((ps) => seen.push(ps.map((p) => p.netQuantity)));
    state.net = 5;
    updates.changed();
    state.net = 0;
    updates.changed();
    expect(seen).toEqual([[], [5], []]);
    const builds = state.builds;
    sub.unsubscribe();
    updates.changed();
    expect(state.builds).toBe(builds);
  });
});
