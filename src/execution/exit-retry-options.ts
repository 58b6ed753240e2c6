/** How a square-off's refused exit is tried again. */
export interface ExitRetryOptions {
  /** Tries after the first refusal; 0 = never try again. */
  attempts: number;
  /** Wait before the first try again; each later wait doubles, up to {@link maxDelayMs}. */
  firstDelayMs: number;
  /** The longest wait between tries. */
  maxDelayMs: number;
}

/** Five more tries, 5 s apart at first and doubling to a minute: 135 s in all. */
export const DEFAULT_EXIT_RETRIES: Readonly<ExitRetryOptions> = {
  attempts: 5,
  firstDelayMs: 5_000,
  maxDelayMs: 60_000,
};
