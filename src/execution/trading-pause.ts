import type { Logger } from 'pino';
import type { SessionError } from '../api/errors/session-error.ts';

/**
 * Whether trading is paused, and why: a refused session (401/403) pauses placing,
 * amending and tracking until a fresh token is in place. Owns the one line that tells
 * a person what to do, unless the kernel's session notice speaks for every component.
 */
export class TradingPause {
  private why: string | undefined;

  constructor(
    private readonly logger: Logger,
    /** The kernel's notice; without it, the pause logs the remedy itself. */
    private readonly onSessionRefused?: (err: SessionError) => void,
  ) {}

  /** Why trading is paused, or undefined. */
  get reason(): string | undefined {
    return this.why;
  }

  /** Pauses on a refused session; a second refusal while paused says nothing more. */
  pause(err: SessionError): void {
    if (this.why !== undefined) return;
    this.why = 'session expired or invalid (HTTP 401/403)';
    if (this.onSessionRefused !== undefined) {
      this.onSessionRefused(err);
      return;
    }
    this.logger.error(
      { operation: err.operation, status: err.status },
      'the access token was refused: trading is paused. Put a new token in the config or .env file and send SIGHUP, or update the watched token file; trading resumes without a restart and without losing state',
    );
  }

  /** Ends the pause; false when there was none. */
  resume(): boolean {
    if (this.why === undefined) return false;
    // With a session notifier, the kernel says it once for every component.
    if (this.onSessionRefused === undefined)
      this.logger.info({ reason: this.why }, 'trading resumed');
    this.why = undefined;
    return true;
  }
}
