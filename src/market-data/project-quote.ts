import type { FullQuote, LtpQuote, OhlcvQuote, Quote } from '../api/schemas/quote.ts';
import type { QuoteMode } from '../domain/order-params.ts';

const RANK: Readonly<Record<QuoteMode, number>> = { ltp: 0, ohlcv: 1, full: 2 };

/**
 * True when a quote of mode `have` carries every field of mode `want`
 * (`full` ⊇ `ohlcv` ⊇ `ltp`).
 *
 * @example
 * ```ts
 * modeCovers('full', 'ltp'); // true
 * modeCovers('ltp', 'ohlcv'); // false
 * ```
 */
export function modeCovers(have: QuoteMode, want: QuoteMode): boolean {
  return RANK[have] >= RANK[want];
}

/** The richer of two modes. */
export function maxMode(a: QuoteMode, b: QuoteMode): QuoteMode {
  return RANK[a] >= RANK[b] ? a : b;
}

/** Modes from least to most detail. */
export const MODES_ASCENDING: readonly QuoteMode[] = ['ltp', 'ohlcv', 'full'];

/** The `ltp` fields of an `ohlcv` or `full` quote. */
function toLtpQuote(q: LtpQuote): LtpQuote {
  return { token: q.token, ltp: q.ltp, close: q.close };
}

/** The `ohlcv` fields of a `full` quote. */
function toOhlcvQuote(q: OhlcvQuote | FullQuote): OhlcvQuote {
  return {
    token: q.token,
    open: q.open,
    high: q.high,
    low: q.low,
    close: q.close,
    ltp: q.ltp,
    ltt: q.ltt,
    oi: q.oi,
    volume: q.volume,
  };
}

/**
 * Projects a quote of mode `from` down to mode `to`, keeping exactly the fields a poll in
 * `to` would have returned. `from` must cover `to`.
 *
 * @example
 * ```ts
 * projectQuote(fullQuote, 'full', 'ltp'); // { token, ltp, close }
 * ```
 */
export function projectQuote<M extends QuoteMode>(quote: Quote, from: QuoteMode, to: M): Quote<M> {
  if (!modeCovers(from, to)) throw new RangeError(`cannot project a ${from} quote to ${to}`);
  if (from === to) return quote as Quote<M>;
  if (to === 'ltp') return toLtpQuote(quote as LtpQuote) as Quote<M>;
  return toOhlcvQuote(quote as FullQuote) as Quote<M>;
}
