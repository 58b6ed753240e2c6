import { TiqsError } from './tiqs-error.ts';

/** The request did not get an answer: connection refused, reset or dropped. */
export class NetworkError extends TiqsError {
  override name = 'NetworkError';

  override get retryable(): boolean {
    return true;
  }
}
