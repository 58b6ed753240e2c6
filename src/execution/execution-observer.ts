/**
 * Told of each placement's stages, for metrics (the ops layer implements it). Times are
 * `performance.now()` milliseconds, taken only when an observer is set; calls must be
 * cheap, as they run between a quote and its order's request.
 *
 * @example
 * ```ts
 * const engine = new ExecutionEngine({ broker, clock, logger, sessions, observer: {
 *   placementSent: (entered, checked, sent) => risk.observe((checked - entered) / 1_000),
 *   placementAnswered: (sent, answered) => send.observe((answered - sent) / 1_000),
 * } });
 * ```
 */
export interface ExecutionObserver {
  /**
   * A placement entered the engine at `enteredAt`, passed the guards and the risk gate at
   * `checkedAt`, had its row journalled and was handed to the broker at `sentAt`.
   */
  placementSent(enteredAt: number, checkedAt: number, sentAt: number): void;
  /** The broker answered (or failed) the placement handed over at `sentAt`, at `answeredAt`. */
  placementAnswered(sentAt: number, answeredAt: number): void;
}
