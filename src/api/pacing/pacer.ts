import type { Clock } from '../../clock/clock.ts';
import { RateLimiter, type RateWindow } from './rate-limiter.ts';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './rate-limits.ts';

/** Rate class of an operation. */
export type RateClass = 'quote' | 'order' | 'other';

/** Default {@link PacerOptions.marginMs} (`broker.pacingMarginMs`). */
export const DEFAULT_PACING_MARGIN_MS = 250;

/** Options of {@link Pacer}. */
export interface PacerOptions {
  /**
   * Added to every window: at most `limit` requests are admitted in any window of
   * `intervalMs + marginMs`. The service counts arrival times, which differ from
   * admission times by connection set-up, event-loop lag and network jitter; as long as
   * those differ by less than the margin between two requests `limit` apart, arrivals
   * never exceed `limit` in any `intervalMs`. Default {@link DEFAULT_PACING_MARGIN_MS}.
   */
  marginMs?: number;
}

/**
 * Client-side pacing for one set of credentials: one queue per rate class. (The 25
 * modifications an order allows are counted once, durably, by the execution engine;
 * a direct client user meets the service's own refusal.) Share one Pacer between everything that uses the same
 * credentials (pass it to each client) so that together they never meet a 429.
 *
 * @example
 * ```ts
 * const pacer = new Pacer(clock, DEFAULT_RATE_LIMITS, { marginMs: 250 });
 * const client = new TiqsClient({ baseUrl, appId, token, clock, pacer });
 * const busClient = new TiqsClient({ baseUrl, appId, token, clock, pacer, retry: { limit: 0 } });
 * ```
 */
export class Pacer {
  readonly limiters: Readonly<Record<RateClass, RateLimiter>>;
  /** The margin added to every window, ms. */
  readonly marginMs: number;

  constructor(
    readonly clock: Clock,
    readonly limits: RateLimits = DEFAULT_RATE_LIMITS,
    options: PacerOptions = {},
  ) {
    const marginMs = options.marginMs ?? DEFAULT_PACING_MARGIN_MS;
    if (!(marginMs >= 0 && Number.isFinite(marginMs))) {
      throw new RangeError(`bad pacing margin ${marginMs} ms`);
    }
    this.marginMs = marginMs;
    const widen = (windows: readonly RateWindow[]): RateWindow[] =>
      windows.map((w) => ({ limit: w.limit, intervalMs: w.intervalMs + marginMs }));
    this.limiters = {
      quote: new RateLimiter(clock, widen(limits.quote)),
      order: new RateLimiter(clock, widen(limits.order)),
      other: new RateLimiter(clock, widen(limits.other)),
    };
  }

  /** Waits for a slot of `rateClass`. */
  acquire(rateClass: RateClass, signal?: AbortSignal): Promise<void> {
    return this.limiters[rateClass].acquire(signal);
  }

  /**
   * Most requests of `rateClass` per second the pacer lets through when saturated, e.g.
   * 8 for 10 per second with a 250 ms margin. A poller must not plan for more.
   */
  sustainedPerSecond(rateClass: RateClass): number {
    return Math.min(
      ...this.limiters[rateClass].windows.map((w) => (w.limit * 1_000) / w.intervalMs),
    );
  }
}
