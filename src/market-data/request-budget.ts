/**
 * A sliding-window budget of requests: at most `limit` in any window of `windowMs`
 * (`(t - windowMs, t]`). Unlike a waiting queue it only hands out send times, so the
 * caller can schedule the send on its own clock — which keeps marble tests synchronous.
 *
 * @example
 * ```ts
 * const budget = new RequestBudget(10, 1_000);
 * const at = budget.reserve(clock.now()); // send no earlier than `at`
 * ```
 */
export class RequestBudget {
  /** Last `limit` reserved send times, as a ring; `head` is the oldest. */
  private readonly ring: number[];
  private head = 0;
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    readonly limit: number,
    readonly windowMs = 1_000,
  ) {
    if (!(Number.isInteger(limit) && limit > 0)) throw new RangeError(`bad budget ${limit}`);
    if (!(windowMs > 0)) throw new RangeError(`bad budget window ${windowMs}`);
    this.ring = new Array<number>(limit).fill(Number.NEGATIVE_INFINITY);
  }

  /** Requests per second this budget allows in the long run. */
  get perSecond(): number {
    return (this.limit * 1_000) / this.windowMs;
  }

  /** Reserves one request and returns the earliest instant (≥ `now`) it may be sent. */
  reserve(now: number): number {
    const oldest = this.ring[this.head] ?? Number.NEGATIVE_INFINITY;
    // Monotonic send times keep the ring ordered, so `head` is always the oldest.
    const at = Math.max(now, this.last, oldest + this.windowMs);
    this.ring[this.head] = at;
    this.head = (this.head + 1) % this.limit;
    this.last = at;
    return at;
  }
}
