import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { LiveClock } from '../clock/live-clock.ts';
import type { QuoteMode, Variety } from '../domain/order-params.ts';
import { DEFAULT_RETRY, DEFAULT_RETRY_AFTER_MAX_MS } from './backoff.ts';
import { type CandleRequest, candleCall } from './candle-request.ts';
import { instrumentMasterCall } from './instrument-master-call.ts';
import type { Call, Method } from './interpret-answer.ts';
import { DEFAULT_PACING_MARGIN_MS, Pacer } from './pacing/pacer.ts';
import { RecordCache } from './record-cache.ts';
import { expectAligned } from './reply-alignment.ts';

import type { CandleRow } from './schemas/candle.ts';
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
import type { TiqsClientOptions } from './tiqs-client-options.ts';
import { type Credentials, TiqsTransport } from './tiqs-transport.ts';

/** Base URL of the real service. */
export const DEFAULT_BASE_URL = 'https://api.tiqs.trading';

export type { TiqsClientOptions } from './tiqs-client-options.ts';
export type { Credentials } from './tiqs-transport.ts';

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
  /** Sends every call: pacing, deadline, retries and answer interpretation live there. */
  private readonly transport: TiqsTransport;
  /** The day's books, record by record: a poll validates only what changed since the last. */
  private readonly orderRecords = new RecordCache(orderBookRecordSchema);
  private readonly tradeRecords = new RecordCache(tradeBookRecordSchema);

  constructor(options: TiqsClientOptions) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    const clock = options.clock ?? new LiveClock();
    // No hidden sharing: whoever builds several clients of one set of credentials
    // passes them one pacer (the mode resolver does); a lone client paces itself.
    this.pacer =
      options.pacer ??
      new Pacer(clock, options.rateLimits, {
        marginMs: options.pacingMarginMs ?? DEFAULT_PACING_MARGIN_MS,
      });
    this.transport = new TiqsTransport({
      baseUrl: this.baseUrl,
      credentials: { appId: options.appId, token: options.token },
      clock,
      timeoutMs: options.timeoutMs ?? 10_000,
      timeoutClock: options.timeoutClock ?? new LiveClock(),
      retry: { ...DEFAULT_RETRY, ...options.retry },
      retryAfterMaxMs: options.retryAfterMaxMs ?? DEFAULT_RETRY_AFTER_MAX_MS,
      throttleRetryDeadlineMs: options.throttleRetryDeadlineMs ?? 20_000,
      pacer: this.pacer,
      random: options.random ?? Math.random,
      fetch: options.fetch,
      logger: options.logger,
      observer: options.observer,
    });
  }

  /** Replaces the credentials, e.g. with the next day's token. */
  setCredentials(credentials: Credentials): void {
    this.transport.setCredentials(credentials);
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
    expectAligned(operation, tokens, data.length, (i) => data[i]?.token);
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
   * Modifies an open or pending order (`PATCH /order/:variety/:order_id`). The service
   * refuses a 26th modification of an order (a `RefusedError`); the execution engine
   * counts them and cancels and re-places instead.
   */
  async modifyOrder(
    variety: Variety,
    orderId: string,
    request: ModifyOrderRequest,
    signal?: AbortSignal,
  ): Promise<MessageResult> {
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
    return this.send({
      operation: 'orderBook',
      method: 'GET',
      path: '/user/orders',
      schema: orderBookSchema,
      records: this.orderRecords,
      rateClass: 'other',
      kind: 'read',
      signal,
    });
  }

  /** The day's trade book, one record per fill (`GET /user/trades`). */
  tradeBook(signal?: AbortSignal): Promise<TradeBookRecord[]> {
    return this.send({
      operation: 'tradeBook',
      method: 'GET',
      path: '/user/trades',
      schema: tradeBookSchema,
      records: this.tradeRecords,
      rateClass: 'other',
      kind: 'read',
      signal,
    });
  }

  // --- utilities ----------------------------------------------------------------

  /** Holidays and special sessions of the current year (`GET /info/holidays`). */
  holidays(signal?: AbortSignal): Promise<Holidays> {
    return this.read('holidays', 'GET', '/info/holidays', holidaysSchema, signal);
  }

  /** The instrument master's CSV text (`GET /all`; see `instrument-master-csv.ts` to read it). */
  instrumentMaster(signal?: AbortSignal): Promise<string> {
    return this.send(instrumentMasterCall(signal));
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
    expectAligned('greeks', tokens, data.length);
    return data;
  }

  /** Historical candles (`GET /candle/:exchange/:token/:interval`): a bare array of rows, paise. */
  candles(request: CandleRequest, signal?: AbortSignal): Promise<CandleRow[]> {
    return this.send(candleCall(request, signal));
  }

  // --- sending ------------------------------------------------------------------

  private read<T>(
    operation: string,
    method: Method,
    path: string,
    schema: z.ZodType<T>,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    return this.send({ operation, method, path, schema, rateClass: 'other', kind: 'read', signal });
  }

  private send<T>(call: Call<T>): Promise<T> {
    return this.transport.send(call);
  }
}

// Built once: the fallback whole-book schemas (an empty or unusual body, an invalid record).
const orderBookSchema = orderBookRecordSchema.array();
const tradeBookSchema = tradeBookRecordSchema.array();

/** A fresh client order id for the `tags` field. */
function newTag(): string {
  return `tr-${randomUUID().replaceAll('-', '').slice(0, 20)}`;
}
