import { TiqsError } from './tiqs-error.ts';

/** No answer within the configured time-out. */
export class TimeoutError extends TiqsError {
  override name = 'TimeoutError';

  override get retryable(): boolean {
    return true;
  }
}
