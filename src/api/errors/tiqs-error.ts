/** Where an error arose and how the service answered, if it did. */
export interface TiqsErrorDetails {
  /** The client operation, e.g. `placeOrder`. */
  operation: string;
  /** HTTP status of the answer, when there was one. */
  status?: number;
  /** The underlying failure. Never carries request headers. */
  cause?: unknown;
}

/**
 * Base of every error the Tiqs client raises. Messages and serialized forms never
 * contain credentials: the client builds them itself and never attaches raw requests.
 *
 * @example
 * ```ts
 * try { await client.orderBook(); } catch (err) {
 *   if (err instanceof TiqsError) log.warn({ op: err.operation, status: err.status }, err.message);
 * }
 * ```
 */
export class TiqsError extends Error {
  override name = 'TiqsError';
  /** The client operation, e.g. `placeOrder`. */
  readonly operation: string;
  /** HTTP status, when the service answered. */
  readonly status: number | undefined;

  constructor(message: string, details: TiqsErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.operation = details.operation;
    this.status = details.status;
  }

  /** Whether a read may be retried after this error. */
  get retryable(): boolean {
    return false;
  }

  /** A plain, credential-free form for logs and reports. */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      operation: this.operation,
      status: this.status,
    };
  }
}
