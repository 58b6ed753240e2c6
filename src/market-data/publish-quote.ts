import type { Quote } from '../api/schemas/quote.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import { type MarketQuote, sourceTimeOf } from './market-quote.ts';
import { MODES_ASCENDING, projectQuote } from './project-quote.ts';
import { sameQuote } from './same-quote.ts';
import type { TokenChannel } from './token-channel.ts';

/**
 * Publishes one quote of `mode` to a token's channels of every mode it covers (full ⊇
 * ohlcv ⊇ ltp), projected down. An unchanged quote only refreshes the cache, so late
 * subscribers see the newest stamps but nobody is woken. Shared by the polling bus and
 * the replay market, so both deliver exactly the same stream.
 */
export function publishQuote(
  channels: Partial<Record<QuoteMode, TokenChannel<MarketQuote>>>,
  mode: QuoteMode,
  quote: Quote,
  receivedAt: number,
  /** The exchange's time, when `quote` is already a projection of a richer one (replay). */
  sourceTime: number = sourceTimeOf(quote, mode, receivedAt),
): void {
  // The modes `mode` covers are MODES_ASCENDING up to its own (once a quote, per token:
  // no rank lookup a mode, no projection of the quote onto its own mode).
  const own = MODES_ASCENDING.indexOf(mode);
  for (let i = 0; i <= own; i++) {
    const m = MODES_ASCENDING[i] as QuoteMode;
    const channel = channels[m];
    if (channel === undefined) continue;
    const projected = i === own ? quote : projectQuote(quote, mode, m);
    const next: MarketQuote = {
      token: quote.token,
      mode: m,
      quote: projected,
      sourceTime,
      receivedAt,
    };
    const prev = channel.last;
    if (prev !== undefined && sameQuote(prev.quote, projected)) channel.last = next;
    else channel.publish(next);
  }
}
