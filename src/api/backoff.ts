/** Backoff settings for retried reads. */
export interface RetryOptions {
  /** Retries after the first attempt. */
  limit: number;
  /** Base delay of the exponential schedule. */
  baseDelayMs: number;
  /** Cap of one delay. */
  maxDelayMs: number;
}

/** Defaults: 3 retries, 250 ms doubling, capped at 8 s. */
export const DEFAULT_RETRY: RetryOptions = { limit: 3, baseDelayMs: 250, maxDelayMs: 8_000 };

/**
 * Delay before retry number `attempt` (0-based): "equal jitter" exponential backoff,
 * never below what the service asked for with `Retry-After`.
 */
export function backoffDelay(
  attempt: number,
  options: RetryOptions,
  random: () => number,
  retryAfterMs?: number,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  const jittered = Math.round(ceiling / 2 + (random() * ceiling) / 2);
  return Math.max(jittered, retryAfterMs ?? 0);
}

/** Default cap of a `Retry-After` wait (`broker.retryAfterMaxMs`). */
export const DEFAULT_RETRY_AFTER_MAX_MS = 30_000;

/**
 * Parses `Retry-After` (seconds or an HTTP date) into ms from `now`, capped at `maxMs`.
 * A negative, non-numeric or unparsable value is ignored (undefined): the service's
 * hint must never turn into an hour's wait, nor overflow a timer (2^31 ms) into a 1 ms
 * retry loop.
 */
export function parseRetryAfter(
  value: string | null,
  now: number,
  maxMs: number = DEFAULT_RETRY_AFTER_MAX_MS,
): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const text = value.trim();
  let ms: number;
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) {
    const seconds = Number(text);
    // "1e400" is Infinity: absurd, but a number, so it is capped like any other.
    if (Number.isNaN(seconds) || seconds < 0) return undefined;
    ms = seconds * 1_000;
  } else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  }
  return Math.round(Math.min(ms, Math.max(0, maxMs)));
}
