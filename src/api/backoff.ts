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

/** Parses `Retry-After` (seconds or an HTTP date) into ms from `now`. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1_000));
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
