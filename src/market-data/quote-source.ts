import type { ObservableInput } from 'rxjs';
import type { Quote } from '../api/schemas/quote.ts';
import type { Greeks } from '../api/schemas/utilities.ts';
import type { Credentials } from '../api/tiqs-client.ts';
import type { QuoteMode } from '../domain/order-params.ts';

/**
 * Where the bus gets its snapshots: the HTTP client in live and paper mode, a replay in
 * backtests, a fake in tests. Answers may be promises or observables (the first value
 * counts), so marble tests can answer synchronously or on the test scheduler.
 *
 * Answers line up with `tokens` by position. A rejection with a
 * {@link import('../api/errors/session-error.ts').SessionError} pauses the bus until
 * {@link MarketDataBus.resume} or {@link MarketDataBus.setCredentials}.
 *
 * @example
 * ```ts
 * const source: QuoteSource = new TiqsClient({ baseUrl, appId, token });
 * const fake: QuoteSource = {
 *   quotes: (mode, tokens) => of(tokens.map((token) => ({ token, ltp: 100, close: 99 }))),
 *   greeks: (tokens) => of(tokens.map(() => ({ iv: 0.15, delta: 0.5, gamma: 0, theta: 0, vega: 0 }))),
 * };
 * ```
 */
export interface QuoteSource {
  /** Quotes of `tokens` in `mode`, in the order of `tokens`. */
  quotes<M extends QuoteMode>(
    mode: M,
    tokens: readonly number[],
    signal?: AbortSignal,
  ): ObservableInput<Quote<M>[]>;
  /** Greeks of option `tokens`, in the order of `tokens`. */
  greeks(tokens: readonly number[], signal?: AbortSignal): ObservableInput<Greeks[]>;
  /** Takes new credentials; called by {@link MarketDataBus.setCredentials}. */
  setCredentials?(credentials: Credentials): void;
}
