import type { Logger } from 'pino';
import type { Observable } from 'rxjs';
import type { SessionError } from '../api/errors/session-error.ts';
import type { Clock } from '../clock/clock.ts';
import type { MarketSessions } from '../domain/market-sessions.ts';
import type { Paise } from '../domain/money.ts';
import type { Broker } from './broker.ts';
import type { ExecutionObserver } from './execution-observer.ts';
import type { ExitRetryOptions } from './exit-retry-options.ts';
import type { Journal } from './journal.ts';
import type { PositionBook } from './position-book.ts';
import type { RiskQuote } from './risk/risk-gate.ts';
import type { RiskLimits } from './risk/risk-limits.ts';

/** Options of {@link ExecutionEngine}. */
export interface ExecutionEngineOptions {
  broker: Broker;
  clock: Clock;
  logger: Logger;
  /**
   * The calendar, or a getter of the current one; `undefined` means none could be
   * loaded, and nothing is sent.
   */
  sessions: MarketSessions | undefined | (() => MarketSessions | undefined);
  trackIntervalMs?: number;
  /** Grace before an unknown placement that is absent from the book counts as not placed. */
  unknownGraceMs?: number;
  positions?: PositionBook;
  /**
   * Whether an intraday position still open after its IST day is closed in the book (the
   * broker squared it off at its cut-off; see `PositionBookOptions.now`). Default true;
   * a backtest, whose paper venue has no cut-off, sets false.
   */
  closeIntradayAfterDay?: boolean;
  /** Durable record of orders, fills and events; default in memory. */
  journal?: Journal;
  risk?: Partial<RiskLimits>;
  /** Last price and band of an instrument, for risk checks and marking. */
  quote?: (token: number) => RiskQuote | undefined;
  /**
   * The trading window: from this many minutes before each session's close (the
   * square-off time) new intraday entries are denied; exits pass. Unset: no window.
   */
  squareOffMinutesBeforeClose?: number;
  /**
   * Last prices of an instrument as they come: a bracket's trailing stop follows them.
   * Without it, trailing follows the risk marks (`markAndCheck`) only.
   */
  marks?: (token: number) => Observable<Paise>;
  /**
   * Modifications the service allows per order (default 25): the engine's journalled
   * count is the only one; past it, a change cancels and places anew.
   */
  maxModifications?: number;
  /**
   * Told when the service refuses the session (401/403) and trading pauses. With it,
   * the engine logs no line of its own: the kernel's one notice speaks for every
   * component. Without it, the engine logs the remedy itself.
   */
  onSessionRefused?: (err: SessionError) => void;
  /**
   * How long {@link ExecutionEngine.recover} waits for the broker's books before it
   * returns and lets reconciliation finish in the background. Default 5 000 ms.
   */
  recoverWaitMs?: number;
  /** How a square-off's refused exit is tried again; default {@link DEFAULT_EXIT_RETRIES}. */
  exitRetries?: Partial<ExitRetryOptions>;
  /** Told of each placement's stage times (metrics); none: nothing is timed. */
  observer?: ExecutionObserver;
}

/** Options of {@link ExecutionEngine.shutdown}. */
export interface ShutdownOptions {
  /** Aborts when the stop's budget is spent; default: no limit. */
  signal?: AbortSignal;
  /** Between re-reads of the book while cancels and exits settle. Default 500 ms. */
  retryMs?: number;
}
