import type { Logger } from 'pino';
import type { Clock } from '../clock/clock.ts';
import type { RetryOptions } from './backoff.ts';
import type { Pacer } from './pacing/pacer.ts';
import type { RateLimits } from './pacing/rate-limits.ts';
import type { RequestObserver } from './request-observer.ts';
import type { Credentials } from './tiqs-transport.ts';

/** Options of `TiqsClient` (tiqs-client.ts); the client fills in every default. */
export interface TiqsClientOptions extends Credentials {
  /** Default `DEFAULT_BASE_URL` (tiqs-client.ts); the simulator's URL in tests and paper mode. */
  baseUrl?: string;
  /** Time source for pacing and backoff. Default: wall clock. */
  clock?: Clock;
  /**
   * Total deadline of one attempt, from sending to the last byte of the body: a stalled
   * or trickling body fails with TimeoutError at this instant. Default 10 s.
   */
  timeoutMs?: number;
  /**
   * Time source of that deadline. Default: the wall clock, since a deadline is about
   * the network; a test's auto-advancing virtual clock would fire it at once.
   */
  timeoutClock?: Clock;
  /** Retry of reads. Order operations are only resent after a 429 (not accepted). */
  retry?: Partial<RetryOptions>;
  /** Longest wait a `Retry-After` header may impose; larger values are capped. Default 30 s. */
  retryAfterMaxMs?: number;
  /**
   * An order operation answered 429 was not accepted: it is resent (same tag) with
   * backoff until this long after the first 429, then fails with RateLimitedError.
   * Default 20 s.
   */
  throttleRetryDeadlineMs?: number;
  /** Client-side limits. Default: the documented ones. */
  rateLimits?: RateLimits;
  /** Jitter margin of the pacer this client makes when none is given. Default 250 ms. */
  pacingMarginMs?: number;
  /**
   * The pacer; pass the same one to every client of these credentials. Default: a new
   * one of this client's own.
   */
  pacer?: Pacer;
  /** Jitter source, for tests. */
  random?: () => number;
  /** Fetch implementation. */
  fetch?: typeof fetch;
  /** Logger; no credential is ever logged. */
  logger?: Logger;
  /** Told of every attempt's status and duration, and of retries (metrics). */
  observer?: RequestObserver;
}
