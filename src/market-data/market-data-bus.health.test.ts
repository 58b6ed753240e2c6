import { filter, map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SessionError } from '../api/errors/session-error.ts';
import { runBus } from './testing/marble-bus.ts';

const boom = (): Error => new Error('HTTP 503');

describe('MarketDataBus: resilience and health', () => {
  it('backs off on failure, marks tokens stale after K intervals, recovers by itself', () => {
    const down = (at: number): boolean => at >= 15 && at < 55;
    const kit = runBus(
      { intervalMs: 10, staleAfterIntervals: 2 },
      { fail: (c) => (down(c.at) ? boom() : undefined) },
      200,
      ({ bus, helpers }) => {
        const { expectObservable } = helpers;
        const overall = bus.health$.pipe(
          filter((e) => e.token === undefined),
          map((e) => e.status),
        );
        const token = bus.health$.pipe(
          filter((e) => e.token === 1),
          map((e) => e.status),
        );
        // ok at 0; first failure at 20; stale at 40 (30 ms > 2 × 10 ms without data); back at 90.
        expectObservable(overall, '^ 120ms !').toBe('o 19ms d 19ms s 49ms o', {
          o: 'ok',
          d: 'degraded',
          s: 'stale',
        });
        expectObservable(token, '^ 120ms !').toBe('20ms d 19ms s 49ms o', {
          o: 'ok',
          d: 'degraded',
          s: 'stale',
        });
        expectObservable(bus.stale$.pipe(map((e) => e.stale)), '^ 120ms !').toBe('40ms t 49ms f', {
          t: true,
          f: false,
        });
        expectObservable(bus.quote$(1, 'ltp').pipe(map((q) => q.quote.ltp)), '^ 120ms !').toBe(
          'a',
          { a: 10_001 },
        );
      },
    );
    // Retries after 1, 2 and 4 intervals; normal cadence again once it works.
    expect(kit.source.calls.map((c) => c.at)).toEqual([0, 10, 20, 30, 50, 90, 100, 110, 120]);
  });

  it('caps the backoff', () => {
    const kit = runBus(
      { intervalMs: 10, maxBackoffMs: 30 },
      { fail: boom },
      200,
      ({ bus, helpers }) => {
        const sub = bus.quote$(1, 'ltp').subscribe();
        helpers.cold('155ms |').subscribe({ complete: () => sub.unsubscribe() });
      },
    );
    expect(kit.source.calls.map((c) => c.at)).toEqual([0, 10, 30, 60, 90, 120, 150]);
  });

  it('isolates errors: a failing batch neither errors nor completes any stream', () => {
    const kit = runBus(
      { intervalMs: 10, batchSize: 1 },
      { fail: (c) => (c.tokens.includes(1) ? boom() : undefined), ltp: (t, at) => t * 100 + at },
      100,
      ({ bus, helpers }) => {
        const { expectObservable } = helpers;
        // Token 2's batch goes out 1 ms after token 1's (the budget spaces sends).
        expectObservable(bus.quotes$([1, 2], 'ltp').pipe(map((q) => q.quote.ltp)), '^ 25ms !').toBe(
          '- a 9ms b 9ms c',
          { a: 201, b: 211, c: 221 },
        );
        expectObservable(bus.quote$(2, 'ltp').pipe(map((q) => q.quote.ltp)), '^ 25ms !').toBe(
          '- a 9ms b 9ms c',
          { a: 201, b: 211, c: 221 },
        );
      },
    );
    // The healthy batch keeps its cadence; the failing one is retried every interval.
    expect(kit.source.calls.map((c) => `${c.at}:${c.tokens[0]}`)).toEqual([
      '0:1',
      '1:2',
      '10:1',
      '11:2',
      '20:1',
      '21:2',
    ]);
  });

  it('pauses on a refused session without spinning, and resumes with new credentials', () => {
    let renewed = false;
    const refused = new SessionError('quotes: HTTP 401', { operation: 'quotes:ltp', status: 401 });
    const kit = runBus(
      { intervalMs: 10 },
      { fail: (c) => (c.at >= 20 && !renewed ? refused : undefined) },
      1_000,
      ({ bus, helpers, scheduler }) => {
        const { expectObservable } = helpers;
        const sub = bus.quote$(1, 'ltp').subscribe();
        helpers.cold('135ms |').subscribe({ complete: () => sub.unsubscribe() });
        expectObservable(
          bus.health$.pipe(
            filter((e) => e.token === undefined),
            map((e) => e.status),
          ),
          '^ 130ms !',
        ).toBe('o 19ms x 79ms o', { o: 'ok', x: 'session-expired' });
        scheduler.schedule(() => {
          expect(bus.tokenHealth(1)).toBe('session-expired');
          renewed = true;
          bus.setCredentials({ appId: 'app', token: 'fresh' });
        }, 100);
      },
    );
    expect(kit.source.calls.map((c) => c.at)).toEqual([0, 10, 20, 100, 110, 120, 130]);
    expect(kit.source.credentials).toEqual([{ appId: 'app', token: 'fresh' }]);
    // One line about the refusal, not one per interval (the kernel's notice carries the
    // remedy; the bus's own line is at debug level).
    expect(kit.log.lines.filter((l) => /credentials refused/.test(l.msg))).toHaveLength(1);
  });

  it('reports a stale token only once and forgets it when unsubscribed', () => {
    const kit = runBus(
      { intervalMs: 10, staleAfterIntervals: 1 },
      { fail: boom },
      200,
      ({ bus, helpers }) => {
        const sub = bus.quote$(1, 'ltp').subscribe();
        helpers.cold('100ms |').subscribe({
          complete: () => {
            expect(bus.isStale(1)).toBe(true);
            sub.unsubscribe();
            expect(bus.isStale(1)).toBe(false);
            expect(bus.tokenHealth(1)).toBeUndefined();
            expect(bus.status).toBe('ok');
          },
        });
      },
    );
    expect(kit.bus.stats.quoteTokens).toBe(0);
  });
});
