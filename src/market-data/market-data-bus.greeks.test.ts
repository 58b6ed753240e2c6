import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { runBus } from './testing/marble-bus.ts';

describe('MarketDataBus: greeks', () => {
  it('shares one batched greeks poll and maps answers to tokens by position', () => {
    const kit = runBus(
      { intervalMs: 10, batchSize: 2 },
      { ltp: (t, at) => t * 1_000 + (at >= 20 ? 500 : 0) },
      100,
      ({ bus, helpers }) => {
        const { expectObservable } = helpers;
        expectObservable(
          bus.greeks$([5, 6]).pipe(map((g) => `${g.token}:${g.greeks.delta}`)),
          '^ 25ms !',
        ).toBe('(ab) 16ms (cd)', { a: '5:0.05', b: '6:0.06', c: '5:0.055', d: '6:0.065' });
        expectObservable(bus.greeks$([6, 7]).pipe(map((g) => g.token)), '^ 25ms !').toBe(
          '(ab) 16ms (ab)',
          { a: 6, b: 7 },
        );
      },
    );
    expect(kit.source.calls.map((c) => `${c.at}:${c.kind}:${c.tokens.join(',')}`)).toEqual([
      '0:greeks:5,6',
      '0:greeks:7',
      '10:greeks:5,6',
      '10:greeks:7',
      '20:greeks:5,6',
      '20:greeks:7',
    ]);
    expect(kit.bus.stats).toMatchObject({ greeksTokens: 0, quoteRequests: 0, greeksRequests: 6 });
  });
});
