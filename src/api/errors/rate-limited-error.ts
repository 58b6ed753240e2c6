import { TiqsError, type TiqsErrorDetails } from './tiqs-error.ts';

/** The service throttled the request (HTTP 429). */
export class RateLimitedError extends TiqsError {
  override name = 'RateLimitedError';
  /** Wait the service asked for via `Retry-After`, in ms, if it said. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, details: TiqsErrorDetails & { retryAfterMs?: number | undefined }) {
    super(message, details);
    this.retryAfterMs = details.retryAfterMs;
  }

  override get retryable(): boolean {
    return true;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), retryAfterMs: this.retryAfterMs };
  }
}
