import { TiqsError } from './tiqs-error.ts';

/**
 * The service refused the credentials (HTTP 401/403): the access token expired (it does
 * so every night at 23:59:59 IST) or is wrong. Supply a new token; retrying won't help.
 */
export class SessionError extends TiqsError {
  override name = 'SessionError';
}
