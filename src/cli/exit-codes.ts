/** Exit codes of the `tiqs-runner` command. */
export const EXIT = {
  /** Done, or stopped cleanly by a signal. */
  ok: 0,
  /**
   * A runtime failure; also a queued sweep with runs the queue failed (code version, data,
   * stalls) rather than their strategy: not done, a rerun queues them again.
   */
  failure: 1,
  /** Bad command-line usage. */
  usage: 2,
  /** Bad config or strategy params. */
  config: 3,
  /**
   * A backtest's strategies subscribe to tokens its data does not hold (the same code as a
   * bad config: the spec asks for what is not there); `--allow-missing` runs on.
   */
  missingData: 3,
  /** The service or calendar could not be reached and nothing could stand in. */
  unavailable: 4,
  /**
   * Stopped on request, but the stop could not finish what its policy asked (a cancel
   * not confirmed, the budget ran out, the books unreadable): check the broker.
   */
  incomplete: 5,
} as const;
