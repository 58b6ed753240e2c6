import type { FullQuote } from '../api/schemas/quote.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import type { MarketQuote } from './market-quote.ts';

/** A token's last price and the day's band (0 when the quote carries none), in paise. */
export interface LastPriceBand {
  ltp: number;
  lowerLimit: number;
  upperLimit: number;
}

/**
 * The last price of `token` with the day's band, from a feed's cache: the full quote's
 * when one is followed, else the LTP with no band.
 *
 * @example
 * ```ts
 * lastPriceBand((t, m) => feed.latest(t, m), 3045); // { ltp: 80190, lowerLimit: 71910, … }
 * ```
 */
export function lastPriceBand(
  latest: (token: number, mode: QuoteMode) => MarketQuote | undefined,
  token: number,
): LastPriceBand | undefined {
  const full = latest(token, 'full')?.quote as FullQuote | undefined;
  const ltp = full?.ltp ?? latest(token, 'ltp')?.quote.ltp;
  if (ltp === undefined) return undefined;
  return { ltp, lowerLimit: full?.lowerLimit ?? 0, upperLimit: full?.upperLimit ?? 0 };
}
