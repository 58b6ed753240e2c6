import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { runBus } from './testing/marble-bus.ts';

describe('MarketDataBus: batching and mode nesting', () => {
  it('merges and deduplicates the tokens of all subscribers, then splits them into batches', () => {
    const kit = runBus({ intervalMs: 10, batchSize: 3 }, {}, 100, ({ bus, helpers }) => {
      const subs = [
        bus.quotes$([5, 1, 2, 3], 'ltp').subscribe(),
        bus.quotes$([3, 4, 6, 7, 7], 'ltp').subscribe(),
      ];
      helpers.cold('5ms |').subscribe({
        complete: () => {
          for (const s of subs) s.unsubscribe();
        },
      });
    });
    expect(kit.source.calls.map((c) => c.tokens)).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
  });

  it('polls a token only in the richest mode wanted and projects it down', () => {
    const ltpOf = (_t: number, at: number): number => 100 + Math.floor(at / 20);
    const kit = runBus({ intervalMs: 10 }, { ltp: ltpOf }, 100, ({ bus, helpers }) => {
      const { expectObservable } = helpers;
      expectObservable(bus.quote$(1, 'full').pipe(map((q) => q.quote.ltp)), '^ 25ms !').toBe(
        'a 19ms b',
        { a: 100, b: 101 },
      );
      // Served from the full poll of token 1: exactly the ltp fields, same stamps.
      expectObservable(bus.quotes$([1, 2], 'ltp').pipe(map((q) => q.quote)), '^ 25ms !').toBe(
        '(ab) 16ms (cd)',
        {
          a: { token: 1, ltp: 100, close: 0 },
          b: { token: 2, ltp: 100, close: 0 },
          c: { token: 1, ltp: 101, close: 1 },
          d: { token: 2, ltp: 101, close: 1 },
        },
      );
      expectObservable(
        bus.quote$(1, 'ohlcv').pipe(map((q) => Object.keys(q.quote).length)),
        '^ 5ms !',
      ).toBe('a', { a: 9 });
    });
    // One request per cycle: token 2 (wanted in ltp only) rides in token 1's full batch,
    // which saves a request, and is projected down to its ltp fields above.
    expect(kit.source.calls.map((c) => `${c.at}:${c.mode}:${c.tokens.join(',')}`)).toEqual([
      '0:full:1,2',
      '10:full:1,2',
      '20:full:1,2',
    ]);
  });

  it('gives a new lower-mode subscriber the cached richer quote at once', () => {
    runBus({ intervalMs: 10 }, {}, 100, ({ bus, helpers }) => {
      const { expectObservable } = helpers;
      expectObservable(bus.quote$(9, 'full').pipe(map((q) => q.mode)), '^ 30ms !').toBe('a', {
        a: 'full',
      });
      expectObservable(bus.quote$(9, 'ltp').pipe(map((q) => q.quote.ltp)), '5ms ^ 10ms !').toBe(
        '5ms a',
        { a: 10_009 },
      );
    });
  });

  it('does not emit when only fields outside the mode changed', () => {
    // Depth-only changes: the full stream emits each time, the ltp stream only once.
    const depth = { depthQuantity: (_t: number, at: number) => 10 + at };
    const kit = runBus({ intervalMs: 10 }, depth, 100, ({ bus, helpers }) => {
      const full: number[] = [];
      const ltp: number[] = [];
      const a = bus.quote$(1, 'full').subscribe((q) => full.push(q.receivedAt));
      const b = bus.quote$(1, 'ltp').subscribe((q) => ltp.push(q.receivedAt));
      helpers.cold('35ms |').subscribe({
        complete: () => {
          a.unsubscribe();
          b.unsubscribe();
          expect(full).toEqual([0, 10, 20, 30].map((t) => t + (full[0] ?? 0)));
          expect(ltp.length).toBe(1);
        },
      });
    });
    expect(kit.source.calls).toHaveLength(4);
  });
});
