import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { QuoteMode } from '../domain/order-params.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';
import type { MarketQuote } from '../market-data/market-quote.ts';
import { PriceSampler } from './price-sampler.ts';

const T0 = Date.parse('2026-11-20T09:15:00+05:30');

/** A feed with one `full` channel for 3045: what the sampler may join. */
function feed() {
  const full = new Subject<MarketQuote>();
  const asked: [number, QuoteMode][] = [];
  const f = {
    latest: (token: number, mode: QuoteMode) =>
      token === 3045 && mode === 'full' ? ({} as MarketQuote) : undefined,
    quote$: (token: number, mode: QuoteMode) => {
      asked.push([token, mode]);
      return full.asObservable();
    },
  } as unknown as MarketFeed;
  const push = (at: number, ltp: number): void =>
    full.next({ token: 3045, receivedAt: at, quote: { ltp } } as unknown as MarketQuote);
  return { f, push, asked };
}

describe('PriceSampler', () => {
  it('folds last prices into one-minute OHLC bars and starts a new bar after a fill', () => {
    const { f, push, asked } = feed();
    const s = new PriceSampler(f);
    expect(s.follow(3045)).toBe(true);
    expect(asked).toEqual([[3045, 'full']]);
    push(T0 + 1_000, 100);
    push(T0 + 20_000, 105);
    push(T0 + 10_000, 1); // older than what was folded: ignored
    push(T0 + 30_000, 98);
    s.split(3045);
    push(T0 + 40_000, 99);
    push(T0 + 61_000, 101);
    const [b] = s.bars();
    expect(b).toEqual({
      token: 3045,
      start: [T0 + 1_000, T0 + 40_000, T0 + 61_000],
      open: [100, 99, 101],
      high: [105, 99, 101],
      low: [98, 99, 101],
      close: [98, 99, 101],
    });
    s.stop();
    push(T0 + 120_000, 200);
    expect(s.bars()[0]?.close).toHaveLength(3);
  });

  it('opens no channel of its own unless asked to create one', () => {
    const { f, asked } = feed();
    const s = new PriceSampler(f);
    expect(s.follow(2885)).toBe(false);
    expect(asked).toEqual([]);
    expect(s.follow(2885, true)).toBe(true);
    expect(asked).toEqual([[2885, 'ltp']]);
    // A token that got no price has no bars.
    expect(s.bars()).toEqual([]);
  });
});
