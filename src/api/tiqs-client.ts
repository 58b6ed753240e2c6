import { randomUUID } from 'node:crypto';
import ky from 'ky';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Clock } from '../clock/clock.ts';
import { LiveClock } from '../clock/live-clock.ts';
import { sleep } from '../clock/sleep.ts';
import type { QuoteMode, Variety } from '../domain/order-params.ts';
import { raceAbort, readBody } from './abortable-exchange.ts';
import {
  backoffDelay,
  DEFAULT_RETRY,
  DEFAULT_RETRY_AFTER_MAX_MS,
  type RetryOptions,
} from './backoff.ts';
import { InvalidResponseError } from './errors/invalid-response-error.ts';
import { ModifyLimitError } from './errors/modify-limit-error.ts';
import { RateLimitedError } from './errors/rate-limited-error.ts';
import { TiqsError } from './errors/tiqs-error.ts';
import { type Call, interpretAnswer, type Method, transportFailure } from './interpret-answer.ts';
import { DEFAULT_PACING_MARGIN_MS, Pacer } from './pacing/pacer.ts';
import type { RateLimits } from './pacing/rate-limits.ts';
import { requestDeadline } from './request-deadline.ts';
import {
  type OrderBookRecord,
  type OrderHistoryRecord,
  orderBookRecordSchema,
  orderHistoryRecordSchema,
  type TradeBookRecord,
  tradeBookRecordSchema,
} from './schemas/order-records.ts';
import {
  type MessageResult,
  type ModifyOrderRequest,
  messageResultSchema,
  type PlaceOrderRequest,
  type PlaceOrderResult,
  placeOrderResultSchema,
} from './schemas/order-requests.ts';
import { type Quote, quoteSchemas } from './schemas/quote.ts';
import {
  type Greeks,
  greeksSchema,
  type Holidays,
  holidaysSchema,
  type IndexRecord,
  indexRecordSchema,
  type OptionChainEntry,
  type OptionChainRequest,
  type OptionChainSymbols,
  optionChainEntrySchema,
  optionChainSymbolsSchema,
} from './schemas/utilities.ts';

/** Base URL of the real service. */
export const DEFAULT_BASE_URL = 'https://api.tiqs.trading';

/** The two request headers that authenticate every call. */
export interface Credentials {
  appId: string;
  token: string;
}

/** Options of {@link TiqsClient}. */
export interface TiqsClientOptions extends Credentials {
  /** Default {@link DEFAULT_BASE_URL}; the simulator's URL in tests and paper mode. */
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
}

/**
 * Typed client of every operation of the Tiqs API (spec §4), on ky.
 *
 * Every call sends the `appId` and `token` headers, waits for its rate slot, unwraps the
 * envelope and validates `data` against the spec's schema, all within one deadline
 * (body included). Redirects are never followed. Reads are retried on network errors,
 * time-outs, 429 and 5xx with jittered exponential backoff. Order operations are resent
 * only after a 429 (not accepted), under the same tag, until a deadline; any other
 * unknown outcome raises {@link OutcomeUnknownError}.
 *
 * @example
 * ```ts
 * const client = new TiqsClient({ baseUrl: sim.url, appId: 'sim-app', token: 'sim-token' });
 * const [sbin] = await client.quotes('ltp', [3045]);
 * console.log(sbin.ltp); // paise
 * ```
 */
export class TiqsClient {
  readonly baseUrl: string;
  readonly pacer: Pacer;
  private credentials: Credentials;
  private readonly clock: Clock;
  private readonly timeoutMs: number;
  private readonly timeoutClock: Clock;
  private readonly retry: RetryOptions;
  private readonly retryAfterMaxMs: number;
  private readonly throttleRetryDeadlineMs: number;
  private readonly random: () => number;
  private readonly fetchImpl: typeof fetch | undefined;
  private readonly logger: Logger | undefined;

  constructor(options: TiqsClientOptions) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.credentials = { appId: options.appId, token: options.token };
    this.clock = options.clock ?? new LiveClock();
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.timeoutClock = options.timeoutClock ?? new LiveClock();
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.retryAfterMaxMs = options.retryAfterMaxMs ?? DEFAULT_RETRY_AFTER_MAX_MS;
    this.throttleRetryDeadlineMs = options.throttleRetryDeadlineMs ?? 20_000;
    this.random = options.random ?? Math.random;
    this.fetchImpl = options.fetch;
    this.logger = options.logger;
    // No hidden sharing: whoever builds several clients of one set of credentials
    // passes them one pacer (the mode resolver does); a lone client paces itself.
    this.pacer =
      options.pacer ??
      new Pacer(this.clock, options.rateLimits, {
        marginMs: options.pacingMarginMs ?? DEFAULT_PACING_MARGIN_MS,
      });
  }

  /** Replaces the credentials, e.g. with the next day's token. */
  setCredentials(credentials: Credentials): void {
    this.credentials = { ...credentials };
  }

  // --- quotes -------------------------------------------------------------------

  /** Quote of one instrument in `mode` (`POST /info/quote/:mode`). */
  quote<M extends QuoteMode>(mode: M, token: number, signal?: AbortSignal): Promise<Quote<M>> {
    return this.send({
      operation: `quote:${mode}`,
      method: 'POST',
      path: `/info/quote/${mode}`,
      body: { token },
      schema: quoteSchemas[mode] as unknown as z.ZodType<Quote<M>>,
      rateClass: 'quote',
      kind: 'read',
      signal,
    });
  }

  /**
   * Quotes of several instruments in `mode` (`POST /info/quotes/:mode`), in the order of
   * `tokens`; a reply that does not line up with the request is an InvalidResponseError.
   */
  async quotes<M extends QuoteMode>(
    mode: M,
    tokens: readonly number[],
    signal?: AbortSignal,
  ): Promise<Quote<M>[]> {
    const operation = `quotes:${mode}`;
    const schema = quoteSchemas[mode].array() as unknown as z.ZodType<Quote<M>[]>;
    const data = await this.send({
      operation,
      method: 'POST',
      path: `/info/quotes/${mode}`,
      body: tokens,
      schema,
      rateClass: 'quote',
      kind: 'read',
      signal,
    });
    this.expectAligned(operation, tokens, data.length, (i) => data[i]?.token);
    return data;
  }

  // --- orders -------------------------------------------------------------------

  /**
   * Places an order (`POST /order/:variety`). Accepted at most once: resent unchanged only
   * after a 429. A missing `tags` gets a fresh unique tag, so that an unknown outcome can
   * always be reconciled.
   */
  placeOrder(
    variety: Variety,
    request: Omit<PlaceOrderRequest, 'tags'> & { tags?: string },
    signal?: AbortSignal,
  ): Promise<PlaceOrderResult> {
    const tag = request.tags !== undefined && request.tags !== '' ? request.tags : newTag();
    return this.send({
      operation: 'placeOrder',
      method: 'POST',
      path: `/order/${variety}`,
      body: { ...request, tags: tag },
      schema: placeOrderResultSchema,
      rateClass: 'order',
      kind: 'order',
      tag,
      signal,
    });
  }

  /**
   * Modifies an open or pending order (`PATCH /order/:variety/:order_id`). Refused
   * locally with {@link ModifyLimitError} after 25 modifications of the order.
   */
  async modifyOrder(
    variety: Variety,
    orderId: string,
    request: ModifyOrderRequest,
    signal?: AbortSignal,
  ): Promise<MessageResult> {
    if (!this.pacer.canModify(orderId)) {
      throw new ModifyLimitError(
        `order ${orderId} has had ${this.pacer.limits.modificationsPerOrder} modifications; cancel it and place anew`,
        { operation: 'modifyOrder' },
      );
    }
    this.pacer.recordModification(orderId);
    return this.send({
      operation: 'modifyOrder',
      method: 'PATCH',
      path: `/order/${variety}/${encodeURIComponent(orderId)}`,
      body: request,
      schema: messageResultSchema,
      rateClass: 'other',
      kind: 'order',
      orderId,
      signal,
    });
  }

  /** Cancels an open or pending order (`DELETE /order/:variety/:order_id`). */
  cancelOrder(variety: Variety, orderId: string, signal?: AbortSignal): Promise<MessageResult> {
    return this.send({
      operation: 'cancelOrder',
      method: 'DELETE',
      path: `/order/${variety}/${encodeURIComponent(orderId)}`,
      schema: messageResultSchema,
      rateClass: 'other',
      kind: 'order',
      orderId,
      signal,
    });
  }

  /** History of one order, newest record first (`GET /order/:order_id`). */
  orderHistory(orderId: string, signal?: AbortSignal): Promise<OrderHistoryRecord[]> {
    return this.read(
      'orderHistory',
      'GET',
      `/order/${encodeURIComponent(orderId)}`,
      orderHistoryRecordSchema.array(),
      signal,
    );
  }

  /** The day's order book (`GET /user/orders`). */
  orderBook(signal?: AbortSignal): Promise<OrderBookRecord[]> {
    return this.read('orderBook', 'GET', '/user/orders', orderBookRecordSchema.array(), signal);
  }

  /** The day's trade book, one record per fill (`GET /user/trades`). */
  tradeBook(signal?: AbortSignal): Promise<TradeBookRecord[]> {
    return this.read('tradeBook', 'GET', '/user/trades', tradeBookRecordSchema.array(), signal);
  }

  // --- utilities ----------------------------------------------------------------

  /** Holidays and special sessions of the current year (`GET /info/holidays`). */
  holidays(signal?: AbortSignal): Promise<Holidays> {
    return this.read('holidays', 'GET', '/info/holidays', holidaysSchema, signal);
  }

  /** Exchange indexes (`GET /info/index-list`). */
  indexList(signal?: AbortSignal): Promise<IndexRecord[]> {
    return this.read('indexList', 'GET', '/info/index-list', indexRecordSchema.array(), signal);
  }

  /** Underlyings and their expiries (`GET /info/option-chain-symbols`). */
  optionChainSymbols(signal?: AbortSignal): Promise<OptionChainSymbols> {
    return this.read(
      'optionChainSymbols',
      'GET',
      '/info/option-chain-symbols',
      optionChainSymbolsSchema,
      signal,
    );
  }

  /** `count` calls then `count` puts around the money (`POST /info/option-chain`). */
  optionChain(request: OptionChainRequest, signal?: AbortSignal): Promise<OptionChainEntry[]> {
    return this.send({
      operation: 'optionChain',
      method: 'POST',
      path: '/info/option-chain',
      body: request,
      schema: optionChainEntrySchema.array(),
      rateClass: 'other',
      kind: 'read',
      signal,
    });
  }

  /** Greeks of option tokens, in the order of `tokens` (`POST /info/greeks`). */
  async greeks(tokens: readonly number[], signal?: AbortSignal): Promise<Greeks[]> {
    const data = await this.send({
      operation: 'greeks',
      method: 'POST',
      path: '/info/greeks',
      body: tokens,
      schema: greeksSchema.array(),
      rateClass: 'other',
      kind: 'read',
      signal,
    });
    this.expectAligned('greeks', tokens, data.length);
    return data;
  }

  // --- transport ----------------------------------------------------------------

  private read<T>(
    operation: string,
    method: Method,
    path: string,
    schema: z.ZodType<T>,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    return this.send({ operation, method, path, schema, rateClass: 'other', kind: 'read', signal });
  }

  private expectAligned(
    operation: string,
    tokens: readonly number[],
    length: number,
    tokenAt?: (i: number) => number | undefined,
  ): void {
    if (length !== tokens.length) {
      throw new InvalidResponseError(
        `${operation}: asked for ${tokens.length} tokens, got ${length} entries`,
        { operation, path: 'data' },
      );
    }
    if (tokenAt === undefined) return;
    tokens.forEach((token, i) => {
      if (tokenAt(i) !== token) {
        throw new InvalidResponseError(
          `${operation}: data[${i}].token is not the requested ${token}`,
          {
            operation,
            path: `data[${i}].token`,
          },
        );
      }
    });
  }

  private async send<T>(call: Call<T>): Promise<T> {
    // The throttle deadline runs from the first 429, not from a wait in the pacer's queue.
    let throttledSince: number | undefined;
    for (let attempt = 0; ; attempt++) {
      // Every attempt takes its own slot: a retry is a request like any other.
      await this.pacer.acquire(call.rateClass, call.signal);
      try {
        return await this.attempt(call);
      } catch (err) {
        if (!(err instanceof TiqsError)) throw err;
        if (err instanceof RateLimitedError) throttledSince ??= this.clock.now();
        const delay = this.retryDelay(call, err, attempt, throttledSince ?? this.clock.now());
        if (delay instanceof TiqsError) throw delay;
        this.logger?.warn(
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
        await sleep(this.clock, delay, call.signal);
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
    const retryAfter = err instanceof RateLimitedError ? err.retryAfterMs : undefined;
    const delay = backoffDelay(attempt, this.retry, this.random, retryAfter);
    if (call.kind === 'read') {
      return err.retryable && attempt < this.retry.limit ? delay : err;
    }
    // An order operation is resent only after a 429: the service did not accept it, so
    // the same request (same tag) cannot make a second order. Anything else stays as is.
    if (!(err instanceof RateLimitedError)) return err;
    const elapsed = this.clock.now() - throttledSince;
    // A wait past the deadline is cut to a last try at the deadline: a coarse or hostile
    // Retry-After must not turn a brief throttle into a rejected order.
    if (elapsed < this.throttleRetryDeadlineMs) {
      return Math.min(delay, this.throttleRetryDeadlineMs - elapsed);
    }
    const what = call.tag !== undefined ? `tag ${call.tag}` : `order ${call.orderId ?? '?'}`;
    return new RateLimitedError(
      `${call.operation}: not accepted for ${what}: the service answered HTTP 429 to ${attempt + 1} attempts over ${elapsed} ms; gave up at the ${this.throttleRetryDeadlineMs} ms deadline`,
      { operation: call.operation, status: 429, retryAfterMs: err.retryAfterMs, cause: err },
    );
  }

  private async attempt<T>(call: Call<T>): Promise<T> {
    const { operation } = call;
    // One deadline over the whole exchange: ky's own time-out stops at the headers.
    const deadline = requestDeadline(this.timeoutClock, this.timeoutMs, call.signal);
    let response: Response | undefined;
    let text: string;
    try {
      response = await raceAbort(
        ky(`${this.baseUrl}${call.path}`, {
          method: call.method,
          headers: { appId: this.credentials.appId, token: this.credentials.token },
          ...(call.body === undefined ? {} : { json: call.body }),
          timeout: false,
          retry: 0,
          throwHttpErrors: false,
          // A redirect would carry the credentials (and a placement) to another origin.
          redirect: 'manual',
          signal: deadline.signal,
          ...(this.fetchImpl === undefined ? {} : { fetch: this.fetchImpl }),
        }),
        deadline.signal,
      );
      // Read on our own stream: the deadline must reach the body even if the fetch
      // lost track of the signal (see readBody).
      text = await readBody(response, deadline.signal);
    } catch (err) {
      throw transportFailure(call, err, {
        expired: deadline.expired,
        timeoutMs: this.timeoutMs,
        status: response?.status,
      });
    } finally {
      deadline.dispose();
    }
    this.logger?.debug({ operation, status: response.status }, 'response');
    return interpretAnswer(call, response, text, {
      now: this.clock.now(),
      retryAfterMaxMs: this.retryAfterMaxMs,
      baseUrl: this.baseUrl,
    });
  }
}

/** A fresh client order id for the `tags` field. */
function newTag(): string {
  return `tr-${randomUUID().replaceAll('-', '').slice(0, 20)}`;
}
