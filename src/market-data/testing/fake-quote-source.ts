import pino, { type Logger } from 'pino';
import { delay, NEVER, type Observable, of, throwError } from 'rxjs';
import type { FullQuote, Quote } from '../../api/schemas/quote.ts';
import type { Greeks } from '../../api/schemas/utilities.ts';
import type { Clock } from '../../clock/clock.ts';
import type { QuoteMode } from '../../domain/order-params.ts';
import { projectQuote } from '../project-quote.ts';
import type { QuoteSource } from '../quote-source.ts';

/** One request the fake saw. */
export interface FakeCall {
  readonly at: number;
  readonly kind: 'quotes' | 'greeks';
  readonly mode: QuoteMode | undefined;
  readonly tokens: readonly number[];
}

/** Options of {@link fakeQuoteSource}. */
export interface FakeSourceOptions {
  /** LTP in paise of `token` at `at` (ms since the clock's zero). Default 10 000 + token. */
  readonly ltp?: (token: number, at: number) => number;
  /** Quantity at every depth level of `token` at `at`. Default 10. */
  readonly depthQuantity?: (token: number, at: number) => number;
  /** An error to answer a call with, if any. */
  readonly fail?: (call: FakeCall) => unknown;
  /** Keep every call in `calls` (default true); benchmarks turn it off. */
  readonly record?: boolean;
  /** Quote answers arrive this long after the request (on the clock). Default 0: at once. */
  readonly quoteLatencyMs?: number;
  /** Calls never answered (a stalled service); the request's abort is counted in `aborted`. */
  readonly stall?: (call: FakeCall) => boolean;
}

/** A {@link QuoteSource} for tests: answers synchronously, records every call. */
export interface FakeQuoteSource extends QuoteSource {
  readonly calls: FakeCall[];
  /** Stalled calls whose request was aborted (given up by the caller). */
  readonly aborted: FakeCall[];
  /** Quotes answered so far. */
  readonly quotesServed: number;
  readonly credentials: unknown[];
}

/**
 * A synchronous QuoteSource for marble tests and benchmarks: quotes derive from an LTP
 * function of time, so an unchanged price yields an identical quote.
 *
 * @example
 * ```ts
 * const source = fakeQuoteSource(clock, 0, { ltp: (t, at) => 100 + Math.floor(at / 1000) });
 * ```
 */
export function fakeQuoteSource(
  clock: Clock,
  zero: number,
  options: FakeSourceOptions = {},
): FakeQuoteSource {
  const ltpOf = options.ltp ?? ((token: number) => 10_000 + token);
  const calls: FakeCall[] = [];
  const aborted: FakeCall[] = [];
  const credentials: unknown[] = [];
  const record = options.record ?? true;
  let served = 0;
  return {
    calls,
    aborted,
    credentials,
    get quotesServed() {
      return served;
    },
    quotes<M extends QuoteMode>(
      mode: M,
      tokens: readonly number[],
      signal?: AbortSignal,
    ): Observable<Quote<M>[]> {
      const at = clock.now() - zero;
      const call: FakeCall = { at, kind: 'quotes', mode, tokens: [...tokens] };
      if (record) calls.push(call);
      if (options.stall?.(call) === true) {
        signal?.addEventListener('abort', () => aborted.push(call), { once: true });
        return NEVER;
      }
      const error = options.fail?.(call);
      if (error !== undefined) return throwError(() => error);
      served += tokens.length;
      const latency = options.quoteLatencyMs ?? 0;
      const answer = of(
        tokens.map((t) =>
          projectQuote(
            fullQuoteOf(t, ltpOf(t, at), 0, options.depthQuantity?.(t, at) ?? 10),
            'full',
            mode,
          ),
        ),
      );
      return latency > 0 ? answer.pipe(delay(latency, clock.scheduler)) : answer;
    },
    greeks(tokens: readonly number[]): Observable<Greeks[]> {
      const at = clock.now() - zero;
      const call: FakeCall = { at, kind: 'greeks', mode: undefined, tokens: [...tokens] };
      if (record) calls.push(call);
      const error = options.fail?.(call);
      if (error !== undefined) return throwError(() => error);
      return of(
        tokens.map((t) => ({
          iv: 0.15,
          delta: ltpOf(t, at) / 100_000,
          gamma: 0,
          theta: 0,
          vega: 0,
        })),
      );
    },
    setCredentials(c) {
      credentials.push(c);
    },
  };
}

/**
 * A full quote whose every field follows from the LTP (so equal LTPs give equal quotes).
 *
 * @example
 * ```ts
 * fullQuoteOf(26000, 2_450_000).ltp; // 2450000
 * ```
 */
export function fullQuoteOf(token: number, ltp: number, time = 0, quantity = 10): FullQuote {
  const level = (i: number) => ({ orders: 1, price: ltp + i, quantity });
  return {
    token,
    asks: [1, 2, 3, 4, 5].map(level),
    bids: [1, 2, 3, 4, 5].map((i) => level(-i)),
    avgPrice: ltp,
    open: ltp,
    high: ltp,
    low: ltp,
    close: ltp - 100,
    ltp,
    ltq: 1,
    ltt: time,
    time,
    netChange: 100,
    netChangeIndicator: 43,
    oi: 0,
    oiDayHigh: 0,
    oiDayLow: 0,
    lowerLimit: 0,
    upperLimit: 0,
    totalBuyQty: 50,
    totalSellQty: 50,
    volume: 1_000,
  };
}

/** A logger that keeps its lines in memory, for asserting on warnings. */
export interface MemoryLogger {
  readonly logger: Logger;
  readonly lines: Array<{ level: number; msg: string; [key: string]: unknown }>;
}

/**
 * A pino logger writing parsed lines to an array.
 *
 * @example
 * ```ts
 * const { logger, lines } = memoryLogger();
 * ```
 */
export function memoryLogger(level: pino.Level = 'debug'): MemoryLogger {
  const lines: MemoryLogger['lines'] = [];
  const logger = pino({ level, base: null }, { write: (s: string) => lines.push(JSON.parse(s)) });
  return { logger, lines };
}
