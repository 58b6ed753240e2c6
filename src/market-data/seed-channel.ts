import type { QuoteMode } from '../domain/order-params.ts';
import type { MarketQuote } from './market-quote.ts';
import { MODES_ASCENDING, modeCovers, projectQuote } from './project-quote.ts';
import type { TokenChannel } from './token-channel.ts';

/**
 * The quote a token's new `mode` channel starts with: the newest cached quote of a richer
 * mode, projected down, so a late subscriber of a lower mode is greeted at once rather
 * than after the next poll or record. Shared by the polling bus and the replay market,
 * which must greet alike (the feed contract checks it).
 *
 * @example
 * ```ts
 * channels.ltp = new TokenChannel(seedFrom(channels, 'ltp')); // from full or ohlcv
 * ```
 */
export function seedFrom(
  channels: Partial<Record<QuoteMode, TokenChannel<MarketQuote>>>,
  mode: QuoteMode,
): MarketQuote | undefined {
  let best: MarketQuote | undefined;
  for (const m of MODES_ASCENDING) {
    if (!modeCovers(m, mode) || m === mode) continue;
    const last = channels[m]?.last;
    if (last !== undefined && (best === undefined || last.receivedAt >= best.receivedAt))
      best = last;
  }
  if (best === undefined) return undefined;
  return { ...best, mode, quote: projectQuote(best.quote, best.mode, mode) };
}
