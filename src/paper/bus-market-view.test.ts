import { describe, expect, it } from 'vitest';
import { fullQuoteOf } from '../market-data/testing/fake-quote-source.ts';
import { BusMarketView } from './bus-market-view.ts';

const SBIN = 3045;

function view(slippageTicks = 0): BusMarketView {
  const market = new BusMarketView(slippageTicks);
  market.describe(SBIN, { exchange: 'NSE', symbol: 'SBIN-EQ', lotSize: 1, tick: 5 });
  return market;
}

// The book fills see is built from the latest quote only when asked for (issue 13): what
// fills consumed stays consumed until the next quote, and each quote starts afresh.
describe('BusMarketView', () => {
  it('shows the latest quote’s depth, moved by the slippage, as copies', () => {
    const market = view(2);
    const quote = fullQuoteOf(SBIN, 80_000);
    market.update(quote);
    const book = market.depth(SBIN);
    expect(book.asks[0]).toEqual({ orders: 1, price: 80_011, quantity: 10 });
    expect(book.bids[0]).toEqual({ orders: 1, price: 79_989, quantity: 10 });
    expect(book.asks[0]).not.toBe(quote.asks[0]);
    expect(market.depth(SBIN)).toBe(book);
  });

  it('keeps a consumed book until the next quote replaces it', () => {
    const market = view();
    market.update(fullQuoteOf(SBIN, 80_000));
    const consumed = { bids: market.depth(SBIN).bids, asks: [] };
    market.setDepth(SBIN, consumed);
    expect(market.depth(SBIN)).toBe(consumed);
    market.update(fullQuoteOf(SBIN, 80_100));
    expect(market.depth(SBIN).asks[0]?.price).toBe(80_101);
  });

  it('forgets a consumed book at a new quote even when nothing read the one between', () => {
    const market = view();
    market.update(fullQuoteOf(SBIN, 80_000));
    market.setDepth(SBIN, { bids: [], asks: [] });
    market.update(fullQuoteOf(SBIN, 80_100));
    market.update(fullQuoteOf(SBIN, 80_200));
    expect(market.depth(SBIN).asks).toHaveLength(5);
    expect(market.depth(SBIN).asks[0]?.price).toBe(80_201);
  });

  it('has an empty book for a token without a quote, and none after release', () => {
    const market = view();
    expect(market.depth(SBIN)).toEqual({ bids: [], asks: [] });
    market.update(fullQuoteOf(SBIN, 80_000));
    market.release(SBIN);
    expect(market.depth(SBIN)).toEqual({ bids: [], asks: [] });
    expect(market.has(SBIN)).toBe(false);
  });
});
