import type { FullQuote } from '../../api/schemas/quote.ts';
import type { DepthBook } from '../engine/venue-market.ts';
import type { Snapshot } from './market-snapshot.ts';

/**
 * Assembles the full quote of `token` from its snapshot and depth book at clock
 * instant `now` (epoch ms). Depth levels are copied so callers cannot edit the book.
 */
export function buildFullQuote(
  token: number,
  s: Snapshot,
  book: DepthBook,
  now: number,
): FullQuote {
  const netChange = s.ltp - s.prevClose;
  const sum = (side: typeof book.bids): number => side.reduce((a, l) => a + l.quantity, 0);
  return {
    token,
    asks: book.asks.map((l) => ({ ...l })),
    bids: book.bids.map((l) => ({ ...l })),
    avgPrice: s.avgPrice,
    open: s.open,
    high: s.high,
    low: s.low,
    close: s.prevClose,
    ltp: s.ltp,
    ltq: s.ltq,
    ltt: Math.floor(s.ltt / 1000),
    time: Math.floor(now / 1000),
    netChange,
    // '+', '-' or ' ' as a char code, as the wire format has it.
    netChangeIndicator: netChange > 0 ? 43 : netChange < 0 ? 45 : 32,
    oi: s.oi,
    oiDayHigh: s.oiDayHigh,
    oiDayLow: s.oiDayLow,
    lowerLimit: s.band.lower,
    upperLimit: s.band.upper,
    totalBuyQty: sum(book.bids),
    totalSellQty: sum(book.asks),
    volume: s.volume,
  };
}
