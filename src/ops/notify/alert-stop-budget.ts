/** Kept back after the alerts for closing the channels and exiting, ms. */
const EXIT_MARGIN_MS = 300;

/**
 * How long the alerts may flush at a stop: what is left of `execution.shutdownTimeoutMs`
 * once the graceful work took `elapsedMs`, less a margin for the exit. Not a fixed second:
 * Telegram paces one message a second a chat, and a stop alert dropped for want of time
 * while most of the budget goes unused is the alert the operator needed (review 16b M1).
 */
export function alertStopBudgetMs(budgetMs: number, elapsedMs: number): number {
  return Math.max(0, budgetMs - elapsedMs - EXIT_MARGIN_MS);
}
