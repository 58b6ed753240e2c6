/**
 * How healthy the data is:
 * - `ok`: polls succeed and every token is fresh;
 * - `degraded`: polls are failing and being retried with backoff, data not yet stale;
 * - `stale`: no fresh data within K intervals (for the bus: for at least one token);
 * - `session-expired`: the service refused the credentials; polling is paused until
 *   new ones arrive;
 * - `rejected` (a token only): the service rejects the token itself (e.g. 404 unknown
 *   token); it is set aside, asked for alone now and then, and back once accepted. The
 *   bus as a whole is `degraded` while any token is set aside.
 */
export type HealthStatus = 'ok' | 'degraded' | 'stale' | 'session-expired' | 'rejected';

/**
 * A change of health, of the whole bus (`token` undefined) or of one token.
 *
 * @example
 * ```ts
 * bus.health$.subscribe((e: HealthEvent) => {
 *   if (e.token === undefined && e.status === 'session-expired') refreshToken();
 * });
 * ```
 */
export interface HealthEvent {
  readonly status: HealthStatus;
  /** Epoch ms (bus clock). */
  readonly at: number;
  /** The token concerned; undefined for the bus as a whole. */
  readonly token?: number;
  /** Why, in a few words, for logs and dashboards. */
  readonly reason?: string;
}

/**
 * A token became stale (no fresh data within K intervals) or fresh again.
 *
 * @example
 * ```ts
 * bus.stale$.subscribe((e: StaleEvent) => e.stale && log.warn({ token: e.token }, 'stale'));
 * ```
 */
export interface StaleEvent {
  readonly token: number;
  readonly stale: boolean;
  /** Epoch ms (bus clock). */
  readonly at: number;
  /** When fresh data last arrived; undefined if it never did. */
  readonly lastFreshAt: number | undefined;
}
