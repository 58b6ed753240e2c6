import type { Greeks } from '../api/schemas/utilities.ts';
import type { MarketGreeks } from './market-quote.ts';
import type { TokenChannel } from './token-channel.ts';

/**
 * Publishes a token's greeks to its channel; unchanged greeks only refresh the cache (as
 * {@link publishQuote} does for quotes). Shared by the polling bus and the replay market.
 *
 * @example
 * ```ts
 * publishGreeks(channel, { token: 45001, greeks, receivedAt: clock.now() });
 * ```
 */
export function publishGreeks(channel: TokenChannel<MarketGreeks>, next: MarketGreeks): void {
  const prev = channel.last;
  if (prev !== undefined && sameGreeks(prev.greeks, next.greeks)) channel.last = next;
  else channel.publish(next);
}

function sameGreeks(a: Greeks, b: Greeks): boolean {
  return (
    a.iv === b.iv &&
    a.delta === b.delta &&
    a.gamma === b.gamma &&
    a.theta === b.theta &&
    a.vega === b.vega
  );
}
