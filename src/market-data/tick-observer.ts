/**
 * Told when the bus starts and ends publishing one answer of quotes, for metrics (the ops
 * layer implements it). Strategies react synchronously inside that span, so an order
 * placed between the two calls was caused by one of those quotes: that is how the
 * tick-to-request latency finds its start without stamping every quote. Calls must be
 * cheap: they run once per answer on the hot path.
 *
 * @example
 * ```ts
 * const bus = new MarketDataBus({ source, clock, logger, tickObserver: {
 *   ticksIn: () => { tickAt = performance.now(); inTick = true; },
 *   ticksOut: () => { inTick = false; },
 * } });
 * ```
 */
export interface TickObserver {
  /** The bus is about to publish a batch of quotes. */
  ticksIn(): void;
  /** The batch has been published (every subscriber ran). */
  ticksOut(): void;
}
