import type { FullQuote } from '../../api/schemas/quote.ts';
import type { MarketQuote } from '../../market-data/market-quote.ts';

/**
 * A full quote of SBIN (token 3045) with one level a side, 5 paise around `mid`, 100 deep,
 * inside a ₹720–₹880 price band: what the paper venue's tests step its order engine with.
 *
 * @example
 * ```ts
 * broker.step(sbinFullQuote(80_000, clock.now()));
 * ```
 */
export function sbinFullQuote(mid: number, at: number): MarketQuote<'full'> {
  const quote: FullQuote = {
    token: 3045,
    avgPrice: mid,
    open: mid,
    high: mid,
    low: mid,
    close: mid,
    ltp: mid,
    ltq: 1,
    ltt: 0,
    time: 0,
    netChange: 0,
    netChangeIndicator: 0,
    lowerLimit: 72_000,
    upperLimit: 88_000,
    oi: 0,
    oiDayHigh: 0,
    oiDayLow: 0,
    totalBuyQty: 100,
    totalSellQty: 100,
    volume: 1_000,
    bids: [{ price: mid - 5, quantity: 100, orders: 1 }],
    asks: [{ price: mid + 5, quantity: 100, orders: 1 }],
  };
  return { token: 3045, mode: 'full', quote, sourceTime: at, receivedAt: at };
}
