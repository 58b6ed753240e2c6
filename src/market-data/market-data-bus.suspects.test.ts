import { describe, expect, it } from 'vitest';
import { RefusedError } from '../api/errors/refused-error.ts';
import type { FakeCall } from './testing/fake-quote-source.ts';
import { runBus } from './testing/marble-bus.ts';

/**
 * Tokens under investigation (suspects of a refused batch) are not known to be bad: a
 * probe that says nothing about them must not keep them from the plan.
 *
 * How this was checked: with reject-isolator.ts and market-data-bus.ts as they were
 * before the fix (a probe waited `requestTimeoutMs`, 15 s, and a failed probe was queued
 * again an interval later), the stalled-probe test sees only the refused batch and the
 * two stalled halves in 100 ms (all eight tokens held, no quote of good token 1 until
 * the 15 s time-out), and the 5xx test sees the suspects 1..4 left out of the cycle of
 * 10 and probed at 20; both fail. With the fix both pass.
 */

const range = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);
const calls = (list: readonly FakeCall[]) => list.map((c) => `${c.at}:${c.tokens.join(',')}`);

/** The service's 404 for an unknown token in the list, naming none. */
const unknownToken = (): RefusedError =>
  new RefusedError('quotes: refused by the service (HTTP 404 NotFoundError)', {
    operation: 'quotes',
    status: 404,
    errorCode: 'NotFoundError',
    serviceMessage: 'Not found',
  });

const serverDown = (): RefusedError =>
  new RefusedError('quotes: HTTP 503', {
    operation: 'quotes',
    status: 503,
    errorCode: 'InternalServerError',
    serviceMessage: 'try later',
  });

describe('MarketDataBus: suspects of a refused batch keep flowing', () => {
  it('gives up a stalled probe after about an interval and polls its tokens in the next cycle', () => {
    // Token 6 is unknown; the first two probes (the halves, sent at 1 and 2) never answer.
    // The regular poll's time-out stays the default 15 s.
    const firstHalves = new Set([1, 2]);
    const quoted: Array<[number, number]> = [];
    let rejectedAt35: number[] = [];
    const kit = runBus(
      { intervalMs: 10, batchSize: 8, rejectedRetryMs: 1_000 },
      {
        fail: (c) => (c.tokens.includes(6) ? unknownToken() : undefined),
        stall: (c) => c.tokens.length === 4 && firstHalves.has(c.at),
      },
      100,
      ({ bus, clock, helpers }) => {
        const t0 = clock.now();
        const sub = bus.quotes$(range(1, 8), 'ltp').subscribe((q) => {
          quoted.push([q.token, q.receivedAt - t0]);
        });
        helpers
          .cold('35ms |')
          .subscribe({ complete: () => (rejectedAt35 = bus.rejectedTokenList()) });
        helpers.cold('45ms |').subscribe({ complete: () => sub.unsubscribe() });
      },
    );
    // Released at 11 and 12, polled in the regular cycle of 20 (refused again for 6),
    // bisected at once; from 30 on every good token rides in the regular batch.
    expect(calls(kit.source.calls)).toEqual([
      '0:1,2,3,4,5,6,7,8',
      '1:1,2,3,4',
      '2:5,6,7,8',
      '20:1,2,3,4,5,6,7,8',
      '21:1,2,3,4',
      '22:5,6,7,8',
      '23:5,6',
      '24:7,8',
      '25:5',
      '26:6',
      '30:1,2,3,4,5,7,8',
      '40:1,2,3,4,5,7,8',
    ]);
    // Good token 1 is quoted at 21, two intervals after the refusal, not 15 s later.
    expect(quoted.find(([t]) => t === 1)?.[1]).toBe(21);
    // Both stalled probes were abandoned (their requests aborted) after one interval.
    expect(calls(kit.source.aborted)).toEqual(['1:1,2,3,4', '2:5,6,7,8']);
    expect(rejectedAt35).toEqual([6]);
    // An abandoned probe proves nothing: no "no token is to blame" warning.
    expect(kit.log.lines.filter((l) => /no token is to blame/.test(l.msg))).toHaveLength(0);
  });

  it('puts the tokens of a probe answered 5xx back into the very next cycle', () => {
    const kit = runBus(
      { intervalMs: 10, batchSize: 8, rejectedRetryMs: 1_000 },
      {
        fail: (c) =>
          c.at === 1 ? serverDown() : c.tokens.includes(6) ? unknownToken() : undefined,
      },
      60,
      ({ bus, helpers }) => {
        const sub = bus.quotes$(range(1, 8), 'ltp').subscribe();
        helpers.cold('25ms |').subscribe({
          complete: () => {
            expect(bus.rejectedTokenList()).toEqual([6]);
            sub.unsubscribe();
          },
        });
      },
    );
    // The half 1..4 meets a 503 at 1: its tokens are in the regular batch of 10 with the
    // good tokens the other half's bisection cleared.
    expect(calls(kit.source.calls)).toEqual([
      '0:1,2,3,4,5,6,7,8',
      '1:1,2,3,4',
      '2:5,6,7,8',
      '3:5,6',
      '4:7,8',
      '5:5',
      '6:6',
      '10:1,2,3,4,5,7,8',
      '20:1,2,3,4,5,7,8',
    ]);
  });
});
