import { TiqsError, type TiqsErrorDetails } from './tiqs-error.ts';

/**
 * The service answered with its failure envelope `{status:"error", message, errorCode}`
 * (or a bare non-2xx status). 5xx answers are retryable for reads.
 */
export class RefusedError extends TiqsError {
  override name = 'RefusedError';
  /** The envelope's `errorCode`, e.g. `BadRequestError`; `HttpError` when absent. */
  readonly errorCode: string;
  /** The envelope's `message`, as the service wrote it. */
  readonly serviceMessage: string;

  constructor(
    message: string,
    details: TiqsErrorDetails & { errorCode: string; serviceMessage: string },
  ) {
    super(message, details);
    this.errorCode = details.errorCode;
    this.serviceMessage = details.serviceMessage;
  }

  override get retryable(): boolean {
    return this.status !== undefined && this.status >= 500;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), errorCode: this.errorCode, serviceMessage: this.serviceMessage };
  }
}
