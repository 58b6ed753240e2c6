import { describe, expect, it } from 'vitest';
import type { Quote } from '../api/schemas/quote.ts';
import { sameQuote } from './same-quote.ts';
import { fullQuoteOf } from './testing/fake-quote-source.ts';

describe('sameQuote', () => {
  it('is true for equal quotes, depth compared level by level', () => {
    expect(sameQuote(fullQuoteOf(1, 100), fullQuoteOf(1, 100))).toBe(true);
    expect(sameQuote({ token: 1, ltp: 100, close: 99 }, { token: 1, ltp: 100, close: 99 })).toBe(
      true,
    );
  });

  it('is false when a field or a depth level differs', () => {
    expect(sameQuote({ token: 1, ltp: 100, close: 99 }, { token: 1, ltp: 101, close: 99 })).toBe(
      false,
    );
    const b = fullQuoteOf(1, 100);
    b.asks = b.asks.map((l, i) => (i === 4 ? { ...l, quantity: l.quantity + 1 } : l));
    expect(sameQuote(fullQuoteOf(1, 100), b)).toBe(false);
    const shorter = fullQuoteOf(1, 100);
    shorter.bids = shorter.bids.slice(1);
    expect(sameQuote(fullQuoteOf(1, 100), shorter)).toBe(false);
  });

  it('is false when one quote has a field the other lacks', () => {
    const ltp = { token: 1, ltp: 100, close: 99 };
    const more = { ...ltp, open: 98 } as unknown as Quote;
    expect(sameQuote(ltp, more)).toBe(false);
    expect(sameQuote(more, ltp)).toBe(false);
  });
});
