import type { Logger } from 'pino';

/** The one error line a refused session produces, whichever component met it first. */
export const SESSION_REFUSED_MESSAGE =
  'the access token was refused (HTTP 401/403): trading and market data are paused until a new token arrives';
/** The line once a new token is in place. */
export const SESSION_RESUMED_MESSAGE = 'trading resumed with the new token';

/** Which part of the bot met the refusal. */
export type RefusingComponent = 'market-data' | 'execution';

/**
 * Says once, in one error line with the remedy, that the service refused the session,
 * whichever component (the market-data bus or the execution engine) meets it first and
 * whether or not orders are in flight; and once, when a new token is handed over, that
 * trading resumed. The kernel owns it; the components only report to it.
 *
 * @example
 * ```ts
 * const notice = new SessionExpiryNotice(log, { tokenFile: undefined });
 * notice.refused('market-data', { operation: 'quotes', status: 401 });
 * notice.refused('execution', { operation: 'placeOrder', status: 401 }); // silent
 * notice.resumed(); // "trading resumed with the new token"
 * ```
 */
export class SessionExpiryNotice {
  private paused = false;
  private readonly remedy: string;

  constructor(
    private readonly logger: Logger,
    config: { tokenFile: string | undefined },
  ) {
    this.remedy =
      config.tokenFile === undefined
        ? 'put the new token in the config or the .env file and send SIGHUP (kill -HUP <pid>)'
        : `write the new token to broker.tokenFile (${config.tokenFile}), or put it in the config or the .env file and send SIGHUP`;
  }

  /** Whether a refusal was announced and no new token has come since. */
  get refusedNow(): boolean {
    return this.paused;
  }

  /** A component met a refused session: the first report since the last resume logs. */
  refused(component: RefusingComponent, detail: { operation?: string; status?: number }): void {
    if (this.paused) return;
    this.paused = true;
    this.logger.error(
      {
        event: 'session-refused',
        component,
        ...(detail.operation === undefined ? {} : { operation: detail.operation }),
        ...(detail.status === undefined ? {} : { status: detail.status }),
        remedy: this.remedy,
      },
      `${SESSION_REFUSED_MESSAGE}. To resume without a restart and without losing state: ${this.remedy}`,
    );
  }

  /** New credentials were handed to every component. */
  resumed(): void {
    if (!this.paused) return;
    this.paused = false;
    this.logger.info({ event: 'session-resumed' }, SESSION_RESUMED_MESSAGE);
  }
}
