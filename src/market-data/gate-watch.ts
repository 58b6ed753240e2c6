import type { Logger } from 'pino';
import type { MarketSessions } from '../domain/market-sessions.ts';
import { type GateState, gateAt } from './session-gate.ts';

/**
 * The session gate as the poll loops see it: whether polling may run now, when the gate
 * last opened (tokens are not stale for time spent closed), and one log line per change.
 *
 * @example
 * ```ts
 * const gate = new GateWatch(calendar, 60_000, logger);
 * if (gate.gate(clock.now()).active) poll();
 * ```
 */
export class GateWatch {
  private open = false;
  private openedAtMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly sessions: MarketSessions,
    private readonly warmupMs: number,
    private readonly logger: Logger,
  ) {}

  /** When the gate last opened (epoch ms); -∞ before it ever did. */
  get openedAt(): number {
    return this.openedAtMs;
  }

  /** The gate at `now`, noting an opening or closing. */
  gate(now: number): GateState {
    const state = gateAt(this.sessions, now, this.warmupMs);
    if (state.active && !this.open) this.openedAtMs = now;
    if (state.active !== this.open) {
      this.open = state.active;
      this.logger.info(
        state.active ? { at: now } : { at: now, wakeAt: state.wakeAt },
        state.active ? 'session gate open: polling' : 'session gate closed: polling sleeps',
      );
    }
    return state;
  }

  /** Whether the gate is open at `now`, without noting anything. */
  isActive(now: number): boolean {
    return gateAt(this.sessions, now, this.warmupMs).active;
  }
}
