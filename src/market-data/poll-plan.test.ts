import { describe, expect, it } from 'vitest';
import { chunk, planGreeksPolls, planQuotePolls, stretchFactor } from './poll-plan.ts';
import { projectQuote } from './project-quote.ts';
import { quoteSpacingMs, RequestBudget } from './request-budget.ts';
import { sameQuote } from './same-quote.ts';
import { gateAt } from './session-gate.ts';
import { fullQuoteOf } from './testing/fake-quote-source.ts';

describe('poll planning and its pure helpers', () => {
  it('polls each token in the richest mode per interval, skipping slower covered wants', () => {
    const plan = planQuotePolls(
      new Map([
        [
          3,
          [
            { intervalMs: 1_000, mode: 'ltp' as const },
            { intervalMs: 1_000, mode: 'full' as const },
          ],
        ],
        [
          1,
          [
            { intervalMs: 1_000, mode: 'ohlcv' as const },
            { intervalMs: 5_000, mode: 'ltp' as const },
          ],
        ],
        [
          2,
          [
            { intervalMs: 1_000, mode: 'ltp' as const },
            { intervalMs: 5_000, mode: 'full' as const },
          ],
        ],
      ]),
      50,
    );
    // One request rather than three: tokens 1 (ohlcv) and 2 (ltp) ride in 3's full batch.
    expect(plan.batches.get(1_000)).toEqual([{ mode: 'full', tokens: [1, 2, 3] }]);
    // Token 1's 5 s ltp want is covered by its 1 s ohlcv poll; token 2's full want is not.
    expect(plan.batches.get(5_000)).toEqual([{ mode: 'full', tokens: [2] }]);
    expect([...(plan.tokensByInterval.get(1_000) ?? [])].sort()).toEqual([1, 2, 3]);
  });

  it('plans greeks at the fastest interval wanted', () => {
    const plan = planGreeksPolls(
      new Map([
        [7, [5_000, 1_000]],
        [8, [5_000]],
      ]),
      50,
    );
    expect(plan.batches.get(1_000)).toEqual([{ mode: undefined, tokens: [7] }]);
    expect(plan.batches.get(5_000)).toEqual([{ mode: undefined, tokens: [8] }]);
  });

  it('chunks and computes the stretch factor', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(() => chunk([1], 0)).toThrow(RangeError);
    expect(stretchFactor([{ intervalMs: 1_000, batches: 3 }], 10)).toBe(1);
    expect(stretchFactor([{ intervalMs: 1_000, batches: 12 }], 10)).toBeCloseTo(1.2);
    expect(
      stretchFactor(
        [
          { intervalMs: 1_000, batches: 8 },
          { intervalMs: 500, batches: 2 },
        ],
        10,
      ),
    ).toBeCloseTo(1.2);
  });

  it('hands out evenly spaced send times, never a burst', () => {
    const budget = new RequestBudget(125);
    expect([0, 0, 0, 0].map(() => budget.reserve(0))).toEqual([0, 125, 250, 375]);
    expect(budget.reserve(1_500)).toBe(1_500);
    expect(budget.reserve(1_500)).toBe(1_625);
    expect(budget.perSecond).toBe(8);
  });

  it('spaces quote sends for the bot budget and for the service limit with a jitter margin', () => {
    // 9/s alone would be 112 ms; ten sends must span 1 s plus 250 ms of jitter: 125 ms.
    expect(quoteSpacingMs({ perSecond: 9, serviceLimit: 10, jitterMarginMs: 250 })).toBe(125);
    expect(quoteSpacingMs({ perSecond: 5, serviceLimit: 10, jitterMarginMs: 250 })).toBe(200);
    expect(quoteSpacingMs({ perSecond: 10, serviceLimit: 10, jitterMarginMs: 0 })).toBe(100);
    expect(() => quoteSpacingMs({ perSecond: 0, serviceLimit: 10, jitterMarginMs: 0 })).toThrow(
      RangeError,
    );
  });

  it('projects quotes down and compares them field by field', () => {
    const full = fullQuoteOf(1, 500);
    expect(projectQuote(full, 'full', 'ltp')).toEqual({ token: 1, ltp: 500, close: 400 });
    expect(Object.keys(projectQuote(full, 'full', 'ohlcv')).sort()).toEqual([
      'close',
      'high',
      'low',
      'ltp',
      'ltt',
      'oi',
      'open',
      'token',
      'volume',
    ]);
    expect(() => projectQuote({ token: 1, ltp: 1, close: 1 }, 'ltp', 'full')).toThrow(RangeError);
    expect(sameQuote(fullQuoteOf(1, 500), fullQuoteOf(1, 500))).toBe(true);
    expect(sameQuote(fullQuoteOf(1, 500), fullQuoteOf(1, 500, 0, 11))).toBe(false);
    expect(sameQuote({ token: 1, ltp: 1, close: 1 }, { token: 1, ltp: 2, close: 1 })).toBe(false);
  });

  it('opens the gate in sessions and during the warm-up before one', () => {
    const oracle = {
      isOpen: (t: number) => t >= 100 && t < 200,
      nextOpen: (t: number) => (t < 100 ? 100 : undefined),
      nextClose: () => undefined,
    };
    expect(gateAt(oracle, 50, 20)).toEqual({ active: false, wakeAt: 80 });
    expect(gateAt(oracle, 85, 20)).toEqual({ active: true });
    expect(gateAt(oracle, 150, 20)).toEqual({ active: true });
    expect(gateAt(oracle, 250, 20)).toEqual({ active: false, wakeAt: undefined });
  });
});
