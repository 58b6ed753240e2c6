import { map, take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { runBus } from './testing/marble-bus.ts';

const ltpOf = (_token: number, at: number): number => 100 + Math.floor(at / 20);

describe('MarketDataBus: sharing and the cache', () => {
  it('serves every subscriber from one poll and replays the last quote to a late one', () => {
    const kit = runBus({ intervalMs: 10 }, { ltp: ltpOf }, 200, ({ bus, helpers }) => {
      const { expectObservable } = helpers;
      const ltp = (q: { quote: { ltp: number } }) => q.quote.ltp;
      expectObservable(bus.quote$(1, 'ltp').pipe(map(ltp)), '^ 45ms !').toBe('a 19ms b 19ms c', {
        a: 100,
        b: 101,
        c: 102,
      });
      expectObservable(bus.quote$(1, 'ltp').pipe(map(ltp)), '25ms ^ 10ms !').toBe('25ms b', {
        b: 101,
      });
    });
    // One request per interval while anyone listens, none after the last one left.
    expect(kit.source.calls.map((c) => c.at)).toEqual([0, 10, 20, 30, 40]);
    expect(kit.bus.stats).toMatchObject({ quoteTokens: 0, pollGroups: 0, quoteRequests: 5 });
  });

  it('stamps quotes with receipt time and the source time', () => {
    const seen: Array<{ sourceTime: number; receivedAt: number }> = [];
    const kit = runBus({ intervalMs: 10 }, { ltp: ltpOf }, 100, ({ bus, helpers }) => {
      const sub = bus.quote$(7, 'full').subscribe((q) => seen.push(q));
      helpers.cold('15ms |').subscribe({ complete: () => sub.unsubscribe() });
    });
    // The fake's quotes carry time 0, so the source time falls back to receipt.
    expect(seen.map((q) => q.receivedAt - q.sourceTime)).toEqual([0]);
    expect(seen[0]?.receivedAt).toBe(kit.clock.now() - 15);
  });

  it('starts with the first subscriber and stops with the last (ref counting)', () => {
    const kit = runBus({ intervalMs: 10 }, {}, 200, ({ bus, helpers }) => {
      const { cold } = helpers;
      const a = bus.quotes$([1, 2], 'ltp');
      const b = bus.quotes$([2, 3], 'ltp');
      const subA = a.subscribe();
      let subB: { unsubscribe(): void } | undefined;
      cold('5ms a 19ms b 9ms c').subscribe((step) => {
        if (step === 'a') subB = b.subscribe();
        if (step === 'b') subA.unsubscribe();
        if (step === 'c') subB?.unsubscribe();
      });
    });
    expect(kit.source.calls.map((c) => [c.at, c.tokens])).toEqual([
      [0, [1, 2]],
      [10, [1, 2, 3]],
      [20, [1, 2, 3]],
      [30, [2, 3]],
    ]);
    expect(kit.bus.stats).toMatchObject({ quoteTokens: 0, pollGroups: 0 });
  });

  it('lets same-turn subscribers share the first cycle', () => {
    const kit = runBus({ intervalMs: 1_000 }, {}, 500, ({ bus, helpers }) => {
      const subs = [bus.quotes$([1, 2], 'ltp').subscribe(), bus.quotes$([3], 'ltp').subscribe()];
      helpers.cold('100ms |').subscribe({
        complete: () => {
          for (const s of subs) s.unsubscribe();
        },
      });
    });
    expect(kit.source.calls).toEqual([{ at: 0, kind: 'quotes', mode: 'ltp', tokens: [1, 2, 3] }]);
  });

  it('does not emit when a quote did not change', () => {
    runBus({ intervalMs: 10 }, { ltp: () => 500 }, 100, ({ bus, helpers }) => {
      helpers
        .expectObservable(bus.quote$(1, 'ohlcv').pipe(map((q) => q.quote.ltp)), '^ 60ms !')
        .toBe('a', { a: 500 });
    });
  });

  it('releases everything when a subscriber leaves from inside the replay (take(1))', () => {
    const got: number[] = [];
    const kit = runBus({ intervalMs: 10 }, {}, 100, ({ bus, helpers }) => {
      const keep = bus.quotes$([1, 2], 'ltp').subscribe();
      helpers.cold('5ms |').subscribe({
        complete: () => {
          bus
            .quotes$([1, 2, 3], 'ltp')
            .pipe(take(1))
            .subscribe((q) => got.push(q.token));
          expect(bus.stats.quoteTokens).toBe(2);
          keep.unsubscribe();
        },
      });
    });
    expect(got).toEqual([1]);
    expect(kit.bus.stats).toMatchObject({ quoteTokens: 0, pollGroups: 0 });
  });
});
