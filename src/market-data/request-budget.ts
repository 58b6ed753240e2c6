/**
 * A request budget that spaces sends evenly: consecutive send times are at least
 * `spacingMs` apart, never a burst. Unlike a waiting queue it only hands out send times,
 * so the caller can schedule the send on its own clock — which keeps marble tests
 * synchronous.
 *
 * Why spacing rather than a window of N: a window admits N at its very end and N more at
 * the start of the next, so a little network jitter lands 2N at the service within one
 * second. Evenly spaced sends put at most `ceil((1000 + jitter) / spacingMs)` arrivals in
 * any second at the service, whatever the latency does within `jitter`.
 *
 * @example
 * ```ts
 * const budget = new RequestBudget(quoteSpacingMs({ perSecond: 9, serviceLimit: 10, jitterMarginMs: 250 }));
 * const at = budget.reserve(clock.now()); // send no earlier than `at`
 * ```
 */
export class RequestBudget {
  private last = Number.NEGATIVE_INFINITY;

  constructor(readonly spacingMs: number) {
    if (!(Number.isFinite(spacingMs) && spacingMs > 0)) {
      throw new RangeError(`bad budget spacing ${spacingMs}`);
    }
  }

  /** Requests per second this budget allows in the long run. */
  get perSecond(): number {
    return 1_000 / this.spacingMs;
  }

  /** Reserves one request and returns the earliest instant (≥ `now`) it may be sent. */
  reserve(now: number): number {
    const at = Math.max(now, this.last + this.spacingMs);
    this.last = at;
    return at;
  }
}

/** What bounds the spacing of quote sends; see {@link quoteSpacingMs}. */
export interface SpacingLimits {
  /** The bot's own budget, requests per second. */
  readonly perSecond: number;
  /** The service's limit, requests per (sliding) second. */
  readonly serviceLimit: number;
  /** Latency variation (ms) within which the service's limit must still hold. */
  readonly jitterMarginMs: number;
}

/**
 * The spacing (whole ms) that keeps both the bot's budget and the service's limit: at
 * least `1000 / perSecond`, and at least `(1000 + jitterMarginMs) / serviceLimit`, so
 * that `serviceLimit` sends span more than a second plus the margin and no sliding
 * second at the service ever sees more than `serviceLimit` of them.
 *
 * @example
 * ```ts
 * quoteSpacingMs({ perSecond: 9, serviceLimit: 10, jitterMarginMs: 250 }); // 125
 * ```
 */
export function quoteSpacingMs(limits: SpacingLimits): number {
  const { perSecond, serviceLimit, jitterMarginMs } = limits;
  if (!(perSecond > 0 && serviceLimit > 0 && jitterMarginMs >= 0)) {
    throw new RangeError(`bad spacing limits ${JSON.stringify(limits)}`);
  }
  return Math.ceil(Math.max(1_000 / perSecond, (1_000 + jitterMarginMs) / serviceLimit));
}
