import type { Quote } from '../api/schemas/quote.ts';
import type { Greeks } from '../api/schemas/utilities.ts';
import type { HealthTracker } from './health-tracker.ts';
import type { PollBatch } from './poll-plan.ts';
import { publishGreeks } from './publish-greeks.ts';
import { publishQuote } from './publish-quote.ts';
import type { TokenDemand } from './quote-demand.ts';
import type { TickObserver } from './tick-observer.ts';

/**
 * Puts an answer of the quote or greeks operation into the cache of the subscribed
 * tokens and publishes it; data for tokens nobody wants any more is dropped.
 *
 * @example
 * ```ts
 * const ingest = new Ingest(demand, health);
 * ingest.quotes(batch, quotes, clock.now());
 * ```
 */
export class Ingest {
  constructor(
    private readonly demand: TokenDemand,
    private readonly health: HealthTracker,
    private readonly observer?: TickObserver,
  ) {}

  /** Quotes of `batch`, asked for in the batch's mode. */
  quotes(batch: PollBatch, data: readonly Quote[], receivedAt: number): void {
    const mode = batch.mode ?? 'ltp';
    this.observer?.ticksIn();
    try {
      for (const quote of data) {
        const state = this.demand.quoteTokens.get(quote.token);
        if (state === undefined) continue;
        this.health.fresh(quote.token, receivedAt);
        publishQuote(state.channels, mode, quote, receivedAt);
      }
    } finally {
      this.observer?.ticksOut();
    }
  }

  /** Greeks of `batch`, positional: greeks carry no token of their own. */
  greeks(batch: PollBatch, data: readonly Greeks[], receivedAt: number): void {
    batch.tokens.forEach((token, i) => {
      const greeks = data[i];
      const state = this.demand.greeksTokens.get(token);
      if (greeks === undefined || state === undefined) return;
      publishGreeks(state.channel, { token, greeks, receivedAt });
    });
  }
}
