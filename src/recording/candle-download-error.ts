/** Why a candle download stopped. */
export type CandleDownloadProblem =
  | 'unknown-token'
  | 'no-master'
  | 'no-holidays'
  | 'chunk-failed'
  | 'bad-range';

/**
 * A candle download that cannot go on: a token the instrument master does not list, no
 * master to name the tokens' exchanges, no holiday list (`GET /info/holidays`), a chunk that failed after the client's retries
 * (named by token and dates; the chunks saved before it stay saved), or a range with
 * nothing complete in it. Carries the cause.
 *
 * @example
 * ```ts
 * try { await downloadCandles(options); }
 * catch (e) { if (e instanceof CandleDownloadError && e.problem === 'chunk-failed') process.exitCode = 4; }
 * ```
 */
export class CandleDownloadError extends Error {
  override readonly name = 'CandleDownloadError';

  constructor(
    readonly problem: CandleDownloadProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
