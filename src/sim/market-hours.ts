/**
 * What the simulator needs to know about sessions. `TradingCalendar` (src/calendar)
 * satisfies it; so does {@link ALWAYS_OPEN}. Instants are epoch ms. A session is
 * half-open: open at its start instant, closed at its end instant.
 */
export interface MarketHours {
  /** True when a trading session is running at `at`. */
  isOpen(at: number): boolean;
  /** Start of the next session strictly after `after` (or `after` itself if one starts then). */
  nextOpen(after: number): number | undefined;
  /** End of the session running at `after`, or of the next one. */
  nextClose(after: number): number | undefined;
}

/** A market that never closes: for demos and tests (`--always-open`). */
export const ALWAYS_OPEN: MarketHours = {
  isOpen: () => true,
  nextOpen: (after) => after,
  nextClose: () => undefined,
};
