import { defer, finalize, from, map, type Observable, type ObservableInput } from 'rxjs';
import type { PollBatch } from './poll-plan.ts';
import type { DemandKind } from './quote-demand.ts';
import type { QuoteSource } from './quote-source.ts';

/** Request counters of the bus, shared by the fetches and the failure handling. */
export interface RequestCounters {
  quoteRequests: number;
  greeksRequests: number;
  failedRequests: number;
  inFlightRequests: number;
}

/** Fresh counters, all zero. */
export function newRequestCounters(): RequestCounters {
  return { quoteRequests: 0, greeksRequests: 0, failedRequests: 0, inFlightRequests: 0 };
}

/**
 * One request for `batch` to `source`, counted in `counters`; a greeks answer of the wrong
 * length fails, since greeks can only be matched to tokens by position.
 *
 * @example
 * ```ts
 * const answer = fetchBatch(client, counters, 'quotes', { tokens: [26000], mode: 'ltp' }, signal);
 * ```
 */
export function fetchBatch(
  source: QuoteSource,
  counters: RequestCounters,
  kind: DemandKind,
  batch: PollBatch,
  signal: AbortSignal,
): ObservableInput<readonly unknown[]> {
  return defer(() => {
    let answer: Observable<readonly unknown[]>;
    if (kind === 'quotes') {
      counters.quoteRequests += 1;
      answer = from(source.quotes(batch.mode ?? 'ltp', batch.tokens, signal));
    } else {
      counters.greeksRequests += 1;
      answer = from(source.greeks(batch.tokens, signal)).pipe(
        map((data) => {
          // Greeks carry no token; only a positional answer of the right length is usable.
          if (data.length !== batch.tokens.length) {
            throw new Error(`greeks: asked for ${batch.tokens.length} tokens, got ${data.length}`);
          }
          return data;
        }),
      );
    }
    // Counted once the request exists: a source that throws at once sent nothing.
    counters.inFlightRequests += 1;
    return answer.pipe(finalize(() => (counters.inFlightRequests -= 1)));
  });
}
