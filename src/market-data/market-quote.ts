import type { FullQuote, OhlcvQuote, Quote } from '../api/schemas/quote.ts';
import type { Greeks } from '../api/schemas/utilities.ts';
import type { QuoteMode } from '../domain/order-params.ts';

/**
 * A quote as the bus publishes it: the wire quote (money in integer paise, as sent) plus
 * when the market produced it and when the bus received it.
 *
 * @example
 * ```ts
 * bus.quote$(26000, 'ltp').subscribe((q: MarketQuote<'ltp'>) => {
 *   console.log(q.quote.ltp, new Date(q.sourceTime), q.receivedAt - q.sourceTime);
 * });
 * ```
 */
export interface MarketQuote<M extends QuoteMode = QuoteMode> {
  readonly token: number;
  readonly mode: M;
  readonly quote: Quote<M>;
  /**
   * Epoch ms at which the service stamped the data: the quote's `time` (full), else its
   * `ltt`, else — when the mode has neither or they are 0 — `receivedAt`.
   */
  readonly sourceTime: number;
  /** Epoch ms (bus clock) at which the poll's answer arrived. */
  readonly receivedAt: number;
}

/**
 * Greeks of one option token as the bus publishes them.
 *
 * @example
 * ```ts
 * bus.greeks$([45001]).subscribe((g: MarketGreeks) => console.log(g.token, g.greeks.delta));
 * ```
 */
export interface MarketGreeks {
  readonly token: number;
  readonly greeks: Greeks;
  /** Epoch ms (bus clock) at which the poll's answer arrived. */
  readonly receivedAt: number;
}

/**
 * The service's own timestamp of a quote in epoch ms, or `receivedAt` when the quote has
 * none (ltp mode) or it is 0 (`ltt` may be 0 before the first trade).
 *
 * @example
 * ```ts
 * sourceTimeOf(fullQuote, 'full', Date.now()); // fullQuote.time * 1000
 * ```
 */
export function sourceTimeOf(quote: Quote, mode: QuoteMode, receivedAt: number): number {
  if (mode === 'full') {
    const q = quote as FullQuote;
    if (q.time > 0) return q.time * 1_000;
    if (q.ltt > 0) return q.ltt * 1_000;
  } else if (mode === 'ohlcv') {
    const q = quote as OhlcvQuote;
    if (q.ltt > 0) return q.ltt * 1_000;
  }
  return receivedAt;
}
