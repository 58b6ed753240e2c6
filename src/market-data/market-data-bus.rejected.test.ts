import { filter, map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { RateLimitedError } from '../api/errors/rate-limited-error.ts';
import { RefusedError } from '../api/errors/refused-error.ts';
import { runBus } from './testing/marble-bus.ts';

/** The service's 404 for a list naming unknown tokens, as the simulator words it. */
const unknown = (tokens: readonly number[], named = true): RefusedError =>
  new RefusedError('quotes: refused by the service (HTTP 404 NotFoundError)', {
    operation: 'quotes',
    status: 404,
    errorCode: 'NotFoundError',
    serviceMessage: named ? `Unknown instrument tokens: ${tokens.join(', ')}` : 'Not found',
  });

const range = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);
const calls = (kit: ReturnType<typeof runBus>) =>
  kit.source.calls.map((c) => `${c.at}:${c.tokens.join(',')}`);

describe('MarketDataBus: tokens the service rejects', () => {
  it('checks a named token alone and sets it aside: the rest are polled the next interval', () => {
    let bad = new Set([3]);
    const kit = runBus(
      { intervalMs: 10, batchSize: 5, rejectedRetryMs: 50 },
      {
        fail: (c) => {
          const hit = c.tokens.filter((t) => bad.has(t));
          return hit.length > 0 ? unknown(hit) : undefined;
        },
        ltp: (t, at) => t * 100 + at,
      },
      500,
      ({ bus, helpers, scheduler }) => {
        const { expectObservable } = helpers;
        // The strategy that asked for 1..5 still gets 1, 2, 4, 5 from the next cycle on.
        expectObservable(
          bus.quotes$(range(1, 5), 'ltp').pipe(map((q) => q.token)),
          '^ 15ms !',
        ).toBe('10ms (abcd)', { a: 1, b: 2, c: 4, d: 5 });
        expectObservable(
          bus.health$.pipe(
            filter((e) => e.token === 3),
            map((e) => e.status),
          ),
          '^ 200ms !',
        ).toBe('- r 158ms o', { r: 'rejected', o: 'ok' });
        expectObservable(
          bus.health$.pipe(
            filter((e) => e.token === undefined),
            map((e) => e.status),
          ),
          '^ 200ms !',
        ).toBe('o d 158ms o', { o: 'ok', d: 'degraded' });
        scheduler.schedule(() => {
          expect(bus.tokenHealth(3)).toBe('rejected');
          expect(bus.tokenHealth(4)).toBe('ok');
          expect(bus.rejectedTokenList()).toEqual([3]);
          expect(bus.stats.rejectedTokens).toBe(1);
          // Listed by the service again from 120 on: its next solo retry brings it back.
          bad = new Set();
        }, 120);
        const sub = bus.quotes$(range(1, 5), 'ltp').subscribe();
        helpers.cold('185ms |').subscribe({ complete: () => sub.unsubscribe() });
      },
    );
    const seen = calls(kit);
    // Refused at 0; the named token checked alone in the next budget slot (refused: set
    // aside); the other four polled at the next cycle.
    expect(seen.slice(0, 4)).toEqual(['0:1,2,3,4,5', '1:3', '10:1,2,4,5', '20:1,2,4,5']);
    // Then token 3 alone every 50 ms (due at 51, so at the heartbeats of 60, 110 and
    // 160), accepted at 160 once the service knows it again.
    expect(seen.filter((c) => c.endsWith(':3'))).toEqual(['1:3', '60:3', '110:3', '160:3']);
    // Back in the plan: the whole batch again from the next cycle.
    expect(seen).toContain('170:1,2,3,4,5');
    expect(kit.bus.rejectedTokenList()).toEqual([]);
    expect(kit.log.lines.filter((l) => /set aside/.test(l.msg))).toHaveLength(1);
  });

  it('bisects a batch whose refusal names nobody, within the interval and the budget', () => {
    const kit = runBus(
      { intervalMs: 10, batchSize: 8, rejectedRetryMs: 1_000 },
      { fail: (c) => (c.tokens.includes(6) ? unknown(c.tokens, false) : undefined) },
      60,
      ({ bus, helpers }) => {
        helpers
          .expectObservable(
            bus.health$.pipe(
              filter((e) => e.token !== undefined),
              map((e) => `${e.token}:${e.status}`),
            ),
            '^ 40ms !',
          )
          .toBe('6ms a', { a: '6:rejected' });
        const sub = bus.quotes$(range(1, 8), 'ltp').subscribe();
        helpers.cold('35ms |').subscribe({ complete: () => sub.unsubscribe() });
      },
    );
    // Halves, one send per budget slot (1 ms here), at most two reserved at once: the good
    // seven have quotes before the next cycle, which polls them in one batch.
    expect(calls(kit)).toEqual([
      '0:1,2,3,4,5,6,7,8',
      '1:1,2,3,4',
      '2:5,6,7,8',
      '3:5,6',
      '4:7,8',
      '5:5',
      '6:6',
      '10:1,2,3,4,5,7,8',
      '20:1,2,3,4,5,7,8',
      '30:1,2,3,4,5,7,8',
    ]);
    expect(kit.bus.tokenHealth(6)).toBeUndefined();
  });

  it('does not isolate on throttling or server errors: those are retried as they are', () => {
    const throttled = new RateLimitedError('quotes: HTTP 429', {
      operation: 'quotes',
      status: 429,
    });
    const down = new RefusedError('quotes: HTTP 503', {
      operation: 'quotes',
      status: 503,
      errorCode: 'InternalServerError',
      serviceMessage: 'token 1 unavailable',
    });
    const kit = runBus(
      { intervalMs: 10, batchSize: 4 },
      { fail: (c) => (c.at < 10 ? throttled : c.at < 20 ? down : undefined) },
      100,
      ({ bus, helpers }) => {
        const sub = bus.quotes$(range(1, 4), 'ltp').subscribe();
        helpers.cold('35ms |').subscribe({
          complete: () => {
            expect(bus.rejectedTokenList()).toEqual([]);
            sub.unsubscribe();
          },
        });
      },
    );
    // The usual backoff (1, then 2 intervals), the same batch each time, no probes.
    expect(calls(kit)).toEqual(['0:1,2,3,4', '10:1,2,3,4', '30:1,2,3,4']);
  });

  it('isolates a greeks token the service refuses, and reports it as rejected', () => {
    const notOption = new RefusedError('greeks: HTTP 400', {
      operation: 'greeks',
      status: 400,
      errorCode: 'BadRequestError',
      serviceMessage: 'Token 7 is not an option',
    });
    const kit = runBus(
      { greeksIntervalMs: 10, batchSize: 10, rejectedRetryMs: 1_000 },
      { fail: (c) => (c.kind === 'greeks' && c.tokens.includes(7) ? notOption : undefined) },
      100,
      ({ bus, helpers }) => {
        helpers
          .expectObservable(bus.greeks$([5, 6, 7]).pipe(map((g) => g.token)), '^ 15ms !')
          .toBe('10ms (ab)', { a: 5, b: 6 });
        helpers
          .expectObservable(
            bus.health$.pipe(
              filter((e) => e.token === 7),
              map((e) => e.status),
            ),
            '^ 15ms !',
          )
          .toBe('- r', { r: 'rejected' });
        helpers.cold('12ms |').subscribe({
          complete: () => expect(bus.tokenHealth(7)).toBe('rejected'),
        });
      },
    );
    expect(calls(kit).slice(0, 3)).toEqual(['0:5,6,7', '1:7', '10:5,6']);
  });
});

describe('MarketDataBus: a refusal no single token explains', () => {
  it('keeps every token flowing and warns once that no token is to blame', () => {
    const tooMany = new RefusedError('quotes: HTTP 400', {
      operation: 'quotes',
      status: 400,
      errorCode: 'BadRequestError',
      serviceMessage: 'At most 2 tokens per request',
    });
    const kit = runBus(
      { intervalMs: 10, batchSize: 4, rejectedRetryMs: 1_000 },
      { fail: (c) => (c.tokens.length > 2 ? tooMany : undefined) },
      100,
      ({ bus, helpers }) => {
        const got = new Set<number>();
        const sub = bus.quotes$(range(1, 4), 'ltp').subscribe((q) => got.add(q.token));
        helpers.cold('25ms |').subscribe({
          complete: () => {
            expect([...got].sort()).toEqual([1, 2, 3, 4]);
            expect(bus.rejectedTokenList()).toEqual([]);
            sub.unsubscribe();
          },
        });
      },
    );
    // The message's "2" is checked alone first and accepted, so names are no longer
    // trusted; from then on each cycle is the batch, then its halves (accepted).
    expect(calls(kit)).toEqual([
      '0:1,2,3,4',
      '1:2',
      '10:1,2,3,4',
      '11:1,2',
      '12:3,4',
      '20:1,2,3,4',
      '21:1,2',
      '22:3,4',
    ]);
    expect(kit.log.lines.filter((l) => /no token is to blame/.test(l.msg))).toHaveLength(1);
  });
});

describe('MarketDataBus: a service that refuses everything', () => {
  it('bisects within the budget, sets every token aside and warns that the service may be wrong', () => {
    const kit = runBus(
      { intervalMs: 10, batchSize: 4, rejectedRetryMs: 1_000 },
      { fail: (c) => unknown(c.tokens, false) },
      100,
      ({ bus, helpers }) => {
        const sub = bus.quotes$(range(1, 4), 'ltp').subscribe();
        helpers.cold('50ms |').subscribe({
          complete: () => {
            expect(bus.rejectedTokenList()).toEqual([1, 2, 3, 4]);
            sub.unsubscribe();
          },
        });
      },
    );
    // 1 + 2 + 4 requests, one per budget slot, then nothing until the solo retries.
    expect(calls(kit)).toEqual(['0:1,2,3,4', '1:1,2', '2:3,4', '3:1', '4:2', '5:3', '6:4']);
    expect(kit.log.lines.filter((l) => /refused every token/.test(l.msg))).toHaveLength(1);
  });
});

describe('MarketDataBus: rejected tokens nobody wants any more', () => {
  it('forgets a token whose last subscriber left while its check was out', () => {
    const kit = runBus(
      { intervalMs: 10, batchSize: 5, rejectedRetryMs: 1_000 },
      { fail: (c) => (c.tokens.includes(3) ? unknown([3]) : undefined) },
      100,
      ({ bus, helpers }) => {
        const sub = bus.quotes$(range(1, 5), 'ltp').subscribe();
        // Leaves at 1 ms, just before the solo check of token 3 goes out.
        helpers.cold('-|').subscribe({ complete: () => sub.unsubscribe() });
      },
    );
    expect(calls(kit)).toEqual(['0:1,2,3,4,5', '1:3']);
    expect(kit.bus.rejectedTokenList()).toEqual([]);
    expect(kit.bus.status).toBe('ok');
  });
});
