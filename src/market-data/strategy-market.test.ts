import { filter, map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { RefusedError } from '../api/errors/refused-error.ts';
import { StrategyMarket } from './strategy-market.ts';
import { runBus } from './testing/marble-bus.ts';

const unknown3 = new RefusedError('quotes: HTTP 404', {
  operation: 'quotes',
  status: 404,
  errorCode: 'NotFoundError',
  serviceMessage: 'Unknown instrument tokens: 3',
});

describe('StrategyMarket: each strategy sees the health of its own tokens', () => {
  it('tells the strategy that asked for a rejected token, and only it; the summary says so', () => {
    const kit = runBus(
      { intervalMs: 10, batchSize: 10, rejectedRetryMs: 10_000 },
      { fail: (c) => (c.tokens.includes(3) ? unknown3 : undefined) },
      100,
      ({ bus, clock, helpers }) => {
        const a = StrategyMarket.of(bus, clock, 'a');
        const b = StrategyMarket.of(bus, clock, 'b');
        const late = StrategyMarket.of(bus, clock, 'late');
        expect(StrategyMarket.of(bus, clock, 'a')).toBe(a);
        const tokenEvents = (m: StrategyMarket) =>
          m.health$.pipe(
            filter((e) => e.token !== undefined),
            map((e) => `${e.token}:${e.status}`),
          );
        helpers.expectObservable(tokenEvents(a), '^ 40ms !').toBe('- r', { r: '3:rejected' });
        helpers.expectObservable(tokenEvents(b), '^ 40ms !').toBe('');
        // Asks for token 3 after it was set aside: told at once.
        helpers.expectObservable(tokenEvents(late), '^ 40ms !').toBe('20ms r', { r: '3:rejected' });
        const subs = [a.quotes$([1, 2, 3], 'ltp').subscribe(), b.quote$(10, 'full').subscribe()];
        helpers.cold('20ms |').subscribe({
          complete: () => subs.push(late.quote$(3, 'ltp').subscribe()),
        });
        helpers.cold('30ms |').subscribe({
          complete: () => {
            expect(StrategyMarket.summary(bus)).toEqual({
              a: { status: 'rejected', rejectedTokens: [3], staleTokens: [] },
              b: { status: 'ok', rejectedTokens: [], staleTokens: [] },
              late: { status: 'rejected', rejectedTokens: [3], staleTokens: [] },
            });
            for (const s of subs) s.unsubscribe();
            expect(a.dataHealth().status).toBe('ok');
          },
        });
      },
    );
    // Strategy b's token and a's good ones flowed from the next cycle on.
    expect(kit.source.calls.map((c) => `${c.at}:${c.tokens.join(',')}`).slice(0, 3)).toEqual([
      '0:1,2,3,10',
      '1:3',
      '10:1,2,10',
    ]);
  });
});
