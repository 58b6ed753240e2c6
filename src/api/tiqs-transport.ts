import ky from 'ky';
import type { Logger } from 'pino';
import type { Clock } from '../clock/clock.ts';
import { sleep } from '../clock/sleep.ts';
import { raceAbort, readBody } from './abortable-exchange.ts';
import { backoffDelay, type RetryOptions } from './backoff.ts';
import { RateLimitedError } from './errors/rate-limited-error.ts';
import { TiqsError } from './errors/tiqs-error.ts';
import { type Call, interpretAnswer, transportFailure } from './interpret-answer.ts';
import type { Pacer } from './pacing/pacer.ts';
import { requestDeadline } from './request-deadline.ts';
import type { RequestObserver } from './request-observer.ts';

/** The two request headers that authenticate every call. */
export interface Credentials {
  appId: string;
  token: string;
}

/** Settings of {@link TiqsTransport}, all resolved (defaults applied by the client). */
export interface TiqsTransportOptions {
  /** Service origin, without a trailing slash. */
  baseUrl: string;
  credentials: Credentials;
  /** Time source for pacing and backoff. */
  clock: Clock;
  /** Total deadline of one attempt, body included. */
  timeoutMs: number;
  /** Time source of that deadline. */
  timeoutClock: Clock;
  retry: RetryOptions;
  retryAfterMaxMs: number;
  /** How long after the first 429 an order operation is still resent. */
  throttleRetryDeadlineMs: number;
  pacer: Pacer;
  random: () => number;
  fetch: typeof fetch | undefined;
  logger: Logger | undefined;
  /** Told of every attempt's outcome and duration (metrics); none: nothing is timed. */
  observer?: RequestObserver | undefined;
}

/**
 * Sends one {@link Call} to the service and returns its validated data: every attempt
 * waits for its rate slot, runs under one deadline (body included) and is interpreted by
 * {@link interpretAnswer}. Reads are retried with backoff on retryable errors; order
 * operations only after a 429, until the throttle deadline.
 *
 * @example
 * ```ts
 * const transport = new TiqsTransport({ baseUrl, credentials, clock, pacer, ... });
 * const data = await transport.send(call);
 * ```
 */
export class TiqsTransport {
  private credentials: Credentials;
  /** The options but the credentials, which live in one field only (replaced, never kept). */
  private readonly options: Omit<TiqsTransportOptions, 'credentials'>;

  constructor(options: TiqsTransportOptions) {
    const { credentials, ...rest } = options;
    this.credentials = { ...credentials };
    this.options = rest;
  }

  /** Replaces the credentials sent from the next attempt on. */
  setCredentials(credentials: Credentials): void {
    this.credentials = { ...credentials };
  }

  /** Sends `call`, retrying as its kind allows; resolves to its data or throws a TiqsError. */
  async send<T>(call: Call<T>): Promise<T> {
    const { clock, pacer, logger } = this.options;
    // The throttle deadline runs from the first 429, not from a wait in the pacer's queue.
    let throttledSince: number | undefined;
    for (let attempt = 0; ; attempt++) {
      // Every attempt takes its own slot: a retry is a request like any other.
      await pacer.acquire(call.rateClass, call.signal);
      try {
        return await this.attempt(call);
      } catch (err) {
        if (!(err instanceof TiqsError)) throw err;
        if (err instanceof RateLimitedError) throttledSince ??= clock.now();
        const delay = this.retryDelay(call, err, attempt, throttledSince ?? clock.now());
        if (delay instanceof TiqsError) throw delay;
        logger?.warn(
          {
            operation: call.operation,
            error: err.name,
            status: err.status,
            attempt: attempt + 1,
            delayMs: delay,
            ...(call.tag === undefined ? {} : { tag: call.tag }),
          },
          call.kind === 'order'
            ? 'throttled (HTTP 429, not accepted); resending unchanged after backoff'
            : 'request failed; retrying',
        );
        this.options.observer?.retried(call.operation);
        await sleep(clock, delay, call.signal);
      }
    }
  }

  /** The wait before retrying `call` after `err`, or the error to raise instead. */
  private retryDelay(
    call: Call<unknown>,
    err: TiqsError,
    attempt: number,
    throttledSince: number,
  ): number | TiqsError {
    const { retry, random, clock, throttleRetryDeadlineMs } = this.options;
    const retryAfter = err instanceof RateLimitedError ? err.retryAfterMs : undefined;
    const delay = backoffDelay(attempt, retry, random, retryAfter);
    if (call.kind === 'read') {
      return err.retryable && attempt < retry.limit ? delay : err;
    }
    // An order operation is resent only after a 429: the service did not accept it, so
    // the same request (same tag) cannot make a second order. Anything else stays as is.
    if (!(err instanceof RateLimitedError)) return err;
    const elapsed = clock.now() - throttledSince;
    // A wait past the deadline is cut to a last try at the deadline: a coarse or hostile
    // Retry-After must not turn a brief throttle into a rejected order.
    if (elapsed < throttleRetryDeadlineMs) {
      return Math.min(delay, throttleRetryDeadlineMs - elapsed);
    }
    const what = call.tag !== undefined ? `tag ${call.tag}` : `order ${call.orderId ?? '?'}`;
    return new RateLimitedError(
      `${call.operation}: not accepted for ${what}: the service answered HTTP 429 to ${attempt + 1} attempts over ${elapsed} ms; gave up at the ${throttleRetryDeadlineMs} ms deadline`,
      { operation: call.operation, status: 429, retryAfterMs: err.retryAfterMs, cause: err },
    );
  }

  /** One exchange: send, read the whole body under the deadline, interpret the answer. */
  private async attempt<T>(call: Call<T>): Promise<T> {
    const { operation } = call;
    const { baseUrl, timeoutClock, timeoutMs, clock, retryAfterMaxMs, logger } = this.options;
    const { fetch: fetchImpl, observer } = this.options;
    const started = observer === undefined ? 0 : performance.now();
    // One deadline over the whole exchange: ky's own time-out stops at the headers.
    const deadline = requestDeadline(timeoutClock, timeoutMs, call.signal);
    let response: Response | undefined;
    let text: string;
    try {
      response = await raceAbort(
        ky(`${baseUrl}${call.path}`, {
          method: call.method,
          headers: { appId: this.credentials.appId, token: this.credentials.token },
          ...(call.body === undefined ? {} : { json: call.body }),
          timeout: false,
          retry: 0,
          throwHttpErrors: false,
          // A redirect would carry the credentials (and a placement) to another origin.
          redirect: 'manual',
          signal: deadline.signal,
          ...(fetchImpl === undefined ? {} : { fetch: fetchImpl }),
        }),
        deadline.signal,
      );
      // Read on our own stream: the deadline must reach the body even if the fetch
      // lost track of the signal (see readBody).
      text = await readBody(response, deadline.signal);
    } catch (err) {
      observer?.answered(operation, response?.status ?? 0, (performance.now() - started) / 1_000);
      throw transportFailure(call, err, {
        expired: deadline.expired,
        timeoutMs,
        status: response?.status,
      });
    } finally {
      deadline.dispose();
    }
    logger?.debug({ operation, status: response.status }, 'response');
    observer?.answered(operation, response.status, (performance.now() - started) / 1_000);
    return interpretAnswer(call, response, text, {
      now: clock.now(),
      retryAfterMaxMs,
      baseUrl,
    });
  }
}
