import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { runBus } from './testing/marble-bus.ts';

describe('MarketDataBus: greeks', () => {
  it('shares one batched greeks poll and maps answers to tokens by position', () => {
    const kit = runBus(
      { intervalMs: 1_000, greeksIntervalMs: 10, batchSize: 2 },
      { ltp: (t, at) => t * 1_000 + (at >= 20 ? 500 : 0) },
      100,
      ({ bus, helpers }) => {
        const { expectObservable } = helpers;
        expectObservable(
          bus.greeks$([5, 6]).pipe(map((g) => `${g.token}:${g.greeks.delta}`)),
          '^ 25ms !',
        ).toBe('(ab) 16ms (cd)', { a: '5:0.05', b: '6:0.06', c: '5:0.055', d: '6:0.065' });
        // Token 7's batch goes out 1 ms after the first (sends are spaced).
        expectObservable(bus.greeks$([6, 7]).pipe(map((g) => g.token)), '^ 25ms !').toBe(
          'ab 18ms ab',
          { a: 6, b: 7 },
        );
      },
    );
    expect(kit.source.calls.map((c) => `${c.at}:${c.kind}:${c.tokens.join(',')}`)).toEqual([
      '0:greeks:5,6',
      '1:greeks:7',
      '10:greeks:5,6',
      '11:greeks:7',
      '20:greeks:5,6',
      '21:greeks:7',
    ]);
    expect(kit.bus.stats).toMatchObject({ greeksTokens: 0, quoteRequests: 0, greeksRequests: 6 });
  });

  it('polls greeks every greeksIntervalMs, not at the quote interval', () => {
    const kit = runBus({ intervalMs: 10, greeksIntervalMs: 50 }, {}, 500, ({ bus, helpers }) => {
      const quotes = bus.quote$(1, 'ltp').subscribe();
      const greeks = bus.greeks$([5]).subscribe();
      helpers.cold('120ms |').subscribe({
        complete: () => {
          quotes.unsubscribe();
          greeks.unsubscribe();
        },
      });
    });
    const at = (kind: string) => kit.source.calls.filter((c) => c.kind === kind).map((c) => c.at);
    expect(at('greeks')).toEqual([0, 50, 100]);
    expect(at('quotes')).toHaveLength(12);
  });
});
