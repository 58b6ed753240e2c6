/** Which of the bot's own servers failed. */
export type OpsServer = 'dashboard' | 'metrics';

/** Why an ops server failed: it could not listen (port in use, address not local, …). */
export type OpsServerProblem = 'listen';

/**
 * An ops server (the dashboard, the metrics endpoint) that could not start. Carries the
 * cause (e.g. `EADDRINUSE`); the callers log it and the bot trades on without it.
 *
 * @example
 * ```ts
 * try { await startDashboard(options); }
 * catch (e) { if (e instanceof OpsServerError && e.problem === 'listen') logger.warn({ err: e }, 'no dashboard'); }
 * ```
 */
export class OpsServerError extends Error {
  override readonly name = 'OpsServerError';

  constructor(
    readonly server: OpsServer,
    readonly problem: OpsServerProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
