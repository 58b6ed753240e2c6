import { describe, expect, it } from 'vitest';
import { MemoryJournal } from '../execution/journal.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';
import { readLastPrices, rememberLastPrices } from './last-prices.ts';

/** A feed with fixed latest quotes (token → ltp, receivedAt). */
function feed(quotes: Record<number, [number, number]>): MarketFeed {
  return {
    quoteTokenList: () => Object.keys(quotes).map(Number),
    latest: (token: number) => {
      const q = quotes[token];
      return q === undefined
        ? undefined
        : { token, mode: 'ltp', quote: { ltp: q[0] }, sourceTime: q[1], receivedAt: q[1] };
    },
  } as unknown as MarketFeed;
}

describe('last prices in the journal', () => {
  it('keeps each token’s latest quote, merged over earlier ones', () => {
    const journal = new MemoryJournal();
    expect(readLastPrices(journal).size).toBe(0);
    rememberLastPrices(journal, feed({ 3045: [79_415, 1_000], 2885: [139_905, 1_000] }));
    rememberLastPrices(journal, feed({ 3045: [79_500, 2_000] }));
    expect(readLastPrices(journal)).toEqual(
      new Map([
        [3045, { ltp: 79_500, at: 2_000 }],
        [2885, { ltp: 139_905, at: 1_000 }],
      ]),
    );
  });

  it('reads an unreadable value as none', () => {
    const journal = new MemoryJournal();
    journal.setMeta('lastPrices', 'not json');
    expect(readLastPrices(journal).size).toBe(0);
  });
});
