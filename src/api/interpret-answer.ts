import type { z } from 'zod';
import { parseRetryAfter } from './backoff.ts';
import { InvalidResponseError } from './errors/invalid-response-error.ts';
import { NetworkError } from './errors/network-error.ts';
import { OutcomeUnknownError } from './errors/outcome-unknown-error.ts';
import { RateLimitedError } from './errors/rate-limited-error.ts';
import { RefusedError } from './errors/refused-error.ts';
import { SessionError } from './errors/session-error.ts';
import { TimeoutError } from './errors/timeout-error.ts';
import { TiqsError } from './errors/tiqs-error.ts';
import type { RateClass } from './pacing/pacer.ts';
import { errorEnvelopeSchema, successEnvelopeSchema } from './schemas/envelope.ts';
import { zodPath } from './zod-path.ts';

/** HTTP method of an operation. */
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** One operation as the client sends it. */
export interface Call<T> {
  operation: string;
  method: Method;
  path: string;
  body?: unknown;
  schema: z.ZodType<T>;
  /**
   * Reads a whole-day book record by record, skipping records unchanged since the last
   * read; `undefined` from it means "read the body the ordinary way".
   */
  records?: { read(text: string): T | undefined };
  rateClass: RateClass;
  /** Order operations are resent only after a 429; an open outcome raises OutcomeUnknownError. */
  kind: 'read' | 'order';
  tag?: string;
  orderId?: string;
  signal?: AbortSignal | undefined;
}

/** Failure to reach the service at all: the request cannot have been received. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

/** What {@link interpretAnswer} needs besides the answer. */
export interface AnswerContext {
  /** Now, on the client's clock (for an HTTP-date `Retry-After`). */
  now: number;
  /** Cap of a `Retry-After` wait. */
  retryAfterMaxMs: number;
  /** The configured service; a redirect elsewhere is named by its origin only. */
  baseUrl: string;
}

/**
 * Turns one answer of the service into `call`'s data or a typed error: 401/403 are a
 * {@link SessionError}, 429 a {@link RateLimitedError} (its `Retry-After` capped), a 3xx a
 * refused redirect, a failure envelope or other status a {@link RefusedError}, a body off
 * the spec an {@link InvalidResponseError}. For order operations every answer that leaves
 * the outcome open (5xx, redirect, unreadable) is an {@link OutcomeUnknownError}.
 *
 * @example
 * ```ts
 * const data = interpretAnswer(call, response, await response.text(), {
 *   now: clock.now(), retryAfterMaxMs: 30_000, baseUrl,
 * });
 * ```
 */
export function interpretAnswer<T>(
  call: Call<T>,
  response: Response,
  text: string,
  context: AnswerContext,
): T {
  const { operation } = call;
  const { status } = response;
  if (status === 401 || status === 403) {
    throw new SessionError(
      `${operation}: session expired or invalid (HTTP ${status}); supply a new access token`,
      { operation, status },
    );
  }
  if (status === 429) {
    throw new RateLimitedError(`${operation}: rate limited by the service (HTTP 429)`, {
      operation,
      status,
      retryAfterMs: parseRetryAfter(
        response.headers.get('retry-after'),
        context.now,
        context.retryAfterMaxMs,
      ),
    });
  }
  if (status >= 300 && status < 400) {
    const refused = new RefusedError(
      `${operation}: the service answered HTTP ${status}, a redirect to ${originOf(response.headers.get('location'), context.baseUrl)}; redirects are not followed, so credentials stay with ${originOf(context.baseUrl, context.baseUrl)}`,
      { operation, status, errorCode: 'Redirect', serviceMessage: '' },
    );
    // Whoever redirected may have acted on the order first: only the book can tell.
    if (call.kind === 'order') throw unknownOutcome(call, refused, status);
    throw refused;
  }
  // A book whose records the cache can vouch for needs neither the whole parse nor zod.
  if (status >= 200 && status < 300 && call.records !== undefined) {
    const records = call.records.read(text);
    if (records !== undefined) return records;
  }
  const body = parseBody(text);
  const failure = errorEnvelopeSchema.safeParse(body);
  if (status < 200 || status >= 300 || failure.success) {
    const errorCode = failure.success ? failure.data.errorCode : 'HttpError';
    const serviceMessage = failure.success ? failure.data.message : text.slice(0, 200);
    const refused = new RefusedError(
      `${operation}: refused by the service (HTTP ${status} ${errorCode}): ${serviceMessage}`,
      { operation, status, errorCode, serviceMessage },
    );
    if (call.kind === 'order' && status >= 500) throw unknownOutcome(call, refused, status);
    throw refused;
  }

  const envelope = successEnvelopeSchema.safeParse(body);
  if (!envelope.success) {
    const issue = envelope.error.issues[0];
    const invalid = new InvalidResponseError(
      body === undefined
        ? `${operation}: response body is not JSON`
        : `${operation}: response is not a success envelope at ${zodPath('', issue?.path ?? []) || 'body'}: ${issue?.message ?? ''}`,
      { operation, status, path: zodPath('', issue?.path ?? []) },
    );
    if (call.kind === 'order') throw unknownOutcome(call, invalid, status);
    throw invalid;
  }
  const parsed = call.schema.safeParse(envelope.data.data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = zodPath('data', issue?.path ?? []);
    const invalid = new InvalidResponseError(
      `${operation}: invalid response at ${path}: ${issue?.message ?? 'does not match the spec'}`,
      { operation, status, path },
    );
    if (call.kind === 'order') throw unknownOutcome(call, invalid, status);
    throw invalid;
  }
  return parsed.data;
}

/**
 * The error for a request that got no complete answer: aborted by the caller, past its
 * deadline (`expired`), or a network failure. For an order operation it is an
 * {@link OutcomeUnknownError} unless the request cannot have reached the service.
 */
export function transportFailure(
  call: Call<unknown>,
  err: unknown,
  attempt: { expired: boolean; timeoutMs: number; status?: number | undefined },
): TiqsError {
  const { expired, timeoutMs, status } = attempt;
  const { operation } = call;
  if (call.signal?.aborted) {
    return new TiqsError(`${operation}: aborted`, { operation, cause: safeCause(err) });
  }
  const code = errorCode(err);
  const base = expired
    ? new TimeoutError(
        `${operation}: no complete answer within ${timeoutMs} ms${status === undefined ? '' : ` (HTTP ${status} headers came, the body did not finish)`}`,
        { operation, ...(status === undefined ? {} : { status }), cause: safeCause(err) },
      )
    : new NetworkError(`${operation}: network failure${code ? ` (${code})` : ''}`, {
        operation,
        ...(status === undefined ? {} : { status }),
        cause: safeCause(err),
      });
  if (call.kind === 'order' && (expired || !(code !== undefined && NOT_SENT_CODES.has(code)))) {
    return unknownOutcome(call, base, status);
  }
  return base;
}

/** The body as JSON; `undefined` when empty or not JSON. */
function parseBody(text: string): unknown {
  try {
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** An order operation's outcome is open: reconcile by tag or order id, never resend. */
function unknownOutcome(
  call: Call<unknown>,
  cause: TiqsError,
  status?: number,
): OutcomeUnknownError {
  const what = call.tag !== undefined ? `tag ${call.tag}` : `order ${call.orderId ?? '?'}`;
  return new OutcomeUnknownError(
    `${call.operation}: outcome unknown for ${what} (${cause.message}); reconcile with the order book, do not resend`,
    {
      operation: call.operation,
      ...(status === undefined ? {} : { status }),
      cause,
      tag: call.tag,
      orderId: call.orderId,
    },
  );
}

/** The origin (scheme, host, port) of `location`: never its user, path or query. */
function originOf(location: string | null, base: string): string {
  if (location === null || location === '') return 'no location';
  try {
    return new URL(location, base).origin;
  } catch {
    return 'an unparsable location';
  }
}

/** The system error code under a fetch failure, e.g. `ECONNREFUSED`. */
function errorCode(err: unknown): string | undefined {
  let e: unknown = err;
  for (let depth = 0; depth < 4 && e instanceof Error; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    e = e.cause;
  }
  return undefined;
}

/**
 * A copy of a transport failure that keeps its message and code but drops everything
 * else: ky's errors hold the request, whose headers carry the credentials.
 */
function safeCause(err: unknown): Error {
  const message = err instanceof Error ? err.message : String(err);
  const copy = new Error(message);
  copy.name = err instanceof Error ? err.name : 'Error';
  const code = errorCode(err);
  if (code !== undefined) Object.assign(copy, { code });
  return copy;
}
