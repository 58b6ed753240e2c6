/**
 * What the bus needs to know of the trading calendar. `TradingCalendar` satisfies it.
 *
 * @example
 * ```ts
 * const oracle: SessionOracle = TradingCalendar.fromHolidays(await client.holidays());
 * ```
 */
export interface SessionOracle {
  /** True when a session (regular or special) is open at `at` (epoch ms). */
  isOpen(at: number): boolean;
  /** Start of the next session strictly after `after`; undefined when none is known. */
  nextOpen(after: number): number | undefined;
}

/** A market that never closes: for tests, replays and tools that poll on demand. */
export const ALWAYS_OPEN: SessionOracle = {
  isOpen: () => true,
  nextOpen: () => undefined,
};
