import { RateLimitedError } from '../api/errors/rate-limited-error.ts';
import { SessionError } from '../api/errors/session-error.ts';

/** 4xx answers that are about the session, pacing or time, not about what was asked. */
const NOT_ABOUT_CONTENT = new Set([401, 403, 408, 429]);

/**
 * True when the service refused a request because of what it asked for (a 4xx such as
 * 404 `NotFoundError` or 400 `BadRequestError`), so that asking again for the same
 * tokens will fail again: the batch holds a token the service rejects. A refused
 * session (401/403), throttling (429), a time-out, a 5xx or a network failure says
 * nothing about the tokens and is retried as it is.
 *
 * @example
 * ```ts
 * isContentRejection(new RefusedError('HTTP 404', { status: 404, errorCode: 'NotFoundError', serviceMessage: '' })); // true
 * ```
 */
export function isContentRejection(error: unknown): boolean {
  if (error instanceof SessionError || error instanceof RateLimitedError) return false;
  const status = (error as { status?: unknown } | null | undefined)?.status;
  return (
    typeof status === 'number' && status >= 400 && status < 500 && !NOT_ABOUT_CONTENT.has(status)
  );
}

/**
 * The tokens of `asked` that the refusal's message names ("Unknown instrument tokens:
 * 123, 456", as the simulator and, it seems, the service word it). A hint only: the bus
 * asks for each alone before setting it aside, so a wrong hint ("at most 100 tokens")
 * costs one request, never a token.
 *
 * @example
 * ```ts
 * tokensNamedIn(err, [26000, 99999]); // [99999] for "Unknown instrument tokens: 99999"
 * ```
 */
export function tokensNamedIn(error: unknown, asked: readonly number[]): number[] {
  const e = error as { serviceMessage?: unknown; message?: unknown } | null | undefined;
  // The service's own words when there are any: the client's message also holds the
  // status ("HTTP 404"), which must not be taken for token 404.
  const text =
    typeof e?.serviceMessage === 'string'
      ? e.serviceMessage
      : typeof e?.message === 'string'
        ? e.message
        : '';
  const named = new Set((text.match(/\d+/g) ?? []).map(Number));
  return asked.filter((t) => named.has(t));
}

/** A refused session (401/403, typed or not): a matter of credentials, not of the request. */
export function isSessionRefusal(error: unknown): boolean {
  if (error instanceof SessionError) return true;
  const status = (error as { status?: unknown } | null | undefined)?.status;
  return status === 401 || status === 403;
}
