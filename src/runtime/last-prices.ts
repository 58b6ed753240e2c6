import type { Journal } from '../execution/journal.ts';
import type { MarketFeed } from '../market-data/market-feed.ts';

/** The journal meta key holding the last prices the bot saw. */
const LAST_PRICES_META = 'lastPrices';

/** A token's last traded price and when the bot saw it. */
export interface LastPrice {
  /** Paise. */
  ltp: number;
  /** When the quote arrived, market time (the bus's clock), epoch ms. */
  at: number;
}

/**
 * The last prices a bot wrote to its journal (token → price, time), for readers without a
 * live feed (`tiqs-runner positions`). Empty when none were written or the value is unreadable.
 */
export function readLastPrices(journal: Pick<Journal, 'getMeta'>): Map<number, LastPrice> {
  const text = journal.getMeta(LAST_PRICES_META);
  const out = new Map<number, LastPrice>();
  if (text === undefined) return out;
  try {
    const parsed = JSON.parse(text) as Record<string, Partial<LastPrice>>;
    for (const [token, p] of Object.entries(parsed)) {
      if (typeof p?.ltp === 'number' && typeof p.at === 'number')
        out.set(Number(token), p as LastPrice);
    }
  } catch {
    // A value this module did not write: no last prices, rather than no positions.
  }
  return out;
}

/**
 * Writes the feed's latest price of every quoted token to the journal (merged over what was
 * there, so a token no longer quoted keeps its last price), so that `tiqs-runner positions`
 * can mark open positions after the bot stopped. Called with the periodic summary: one small
 * meta write per interval, never on the order path.
 */
export function rememberLastPrices(
  journal: Pick<Journal, 'getMeta' | 'setMeta'>,
  feed: MarketFeed,
): void {
  const prices = readLastPrices(journal);
  let changed = false;
  for (const token of feed.quoteTokenList()) {
    const q = feed.latest(token, 'ltp') ?? feed.latest(token, 'full');
    if (q === undefined) continue;
    prices.set(token, { ltp: q.quote.ltp, at: q.receivedAt });
    changed = true;
  }
  if (changed) journal.setMeta(LAST_PRICES_META, JSON.stringify(Object.fromEntries(prices)));
}
