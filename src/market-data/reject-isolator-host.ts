import type { Logger } from 'pino';
import type { ObservableInput } from 'rxjs';
import type { Clock } from '../clock/clock.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import type { PollBatch } from './poll-plan.ts';
import type { RequestBudget } from './request-budget.ts';

/**
 * The bus side of a `RejectIsolator`: its clock, budget and timings, what it may ask
 * (wanted, mode, active), how it fetches, and what it tells the bus (answers, a refused
 * session, held tokens changed, a token set aside or restored).
 */
export interface RejectIsolatorHost {
  readonly clock: Clock;
  readonly logger: Logger;
  /** The budget the probes share with the poll loops of the same kind. */
  readonly budget: RequestBudget;
  /**
   * A probe or solo retry without an answer after this long is abandoned: about one
   * poll interval, well under a regular poll's time-out, so suspects never wait out a
   * stalled request away from the plan.
   */
  readonly probeTimeoutMs: number;
  /** A set-aside token is asked for alone this often. */
  readonly retryMs: number;
  /** A solo retry that failed for a reason that says nothing about its token is due again after this. */
  readonly transientRetryMs: number;
  /** Whether anyone still wants the token. */
  wanted(token: number): boolean;
  /** Mode to ask for these tokens in now (undefined for greeks). */
  modeFor(tokens: readonly number[]): QuoteMode | undefined;
  /** Whether requests may go out now (session gate open, bus not paused). */
  active(now: number): boolean;
  fetch(batch: PollBatch, signal: AbortSignal): ObservableInput<readonly unknown[]>;
  onAnswer(batch: PollBatch, data: readonly unknown[], receivedAt: number): void;
  /** The service refused the session: the host pauses (and stops this isolator). */
  onSessionRefused(error: unknown): void;
  /** The set of held tokens changed: the plan must be made again. */
  onHeldChanged(): void;
  onSetAside(token: number, reason: string, at: number): void;
  onRestored(token: number, at: number): void;
}
