/**
 * The one session port: when the market is open. `TradingCalendar` (src/calendar)
 * satisfies it; so does {@link ALWAYS_OPEN}. The bus gates polling on it, the engine
 * gates sending on it, and the simulator opens and closes its market by it. Instants are
 * epoch ms; a session is half-open: open at its start instant, closed at its end instant.
 */
export interface MarketSessions {
  /** True when a trading session is running at `at`. */
  isOpen(at: number): boolean;
  /** Start of the next session strictly after `after` (or `after` itself if one starts then). */
  nextOpen(after: number): number | undefined;
  /** End of the session running at `after`, or of the next one. */
  nextClose(after: number): number | undefined;
}

/** A market that never closes: for demos and tests (`--always-open`). */
export const ALWAYS_OPEN: MarketSessions = {
  isOpen: () => true,
  nextOpen: (after) => after,
  nextClose: () => undefined,
};
