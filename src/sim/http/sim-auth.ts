import type { IncomingHttpHeaders } from 'node:http';
import { SimError } from '../sim-error.ts';

/** Credentials the simulator accepts. */
export interface SimCredentials {
  appId: string;
  token: string;
}

/** Default credentials of the simulator. */
export const DEFAULT_SIM_CREDENTIALS: Readonly<SimCredentials> = {
  appId: 'sim-app',
  token: 'sim-token',
};

/**
 * Checks the `appId` and `token` headers: missing gives 401, wrong gives 403, expired
 * (at or after `expiresAt`) gives 401 with a message that says so.
 */
export function checkCredentials(
  headers: IncomingHttpHeaders,
  expected: SimCredentials,
  now: number,
  expiresAt: number | undefined,
): void {
  const appId = headers.appid;
  const token = headers.token;
  if (typeof appId !== 'string' || appId === '' || typeof token !== 'string' || token === '') {
    throw new SimError(401, 'Unauthorized', 'Missing appId or token header');
  }
  if (appId !== expected.appId || token !== expected.token) {
    throw new SimError(403, 'Forbidden', 'Invalid appId or token');
  }
  if (expiresAt !== undefined && now >= expiresAt) {
    throw new SimError(401, 'Unauthorized', 'Token expired; log in again for a new token');
  }
}
