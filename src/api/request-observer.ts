/**
 * Told of every attempt the transport makes, for metrics (the ops layer implements it).
 * Calls are synchronous and must be cheap: they run on the request path.
 *
 * @example
 * ```ts
 * const client = new TiqsClient({ ...credentials, observer: {
 *   answered: (operation, status, seconds) => histogram.observe({ operation, status }, seconds),
 *   retried: () => retries.inc(),
 * } });
 * ```
 */
export interface RequestObserver {
  /**
   * One attempt of `operation` (the operation's name, such as `placeOrder` or
   * `quotes:ltp`, never a URL) ended after `seconds` of wall time with the HTTP `status`,
   * or 0 when no answer came (time-out, network failure).
   */
  answered(operation: string, status: number, seconds: number): void;
  /** An attempt of `operation` failed and is about to be sent again after a backoff. */
  retried(operation: string): void;
}
