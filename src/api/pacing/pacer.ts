import { createHash } from 'node:crypto';
import type { Clock } from '../../clock/clock.ts';
import { RateLimiter } from './rate-limiter.ts';
import { DEFAULT_RATE_LIMITS, type RateLimits } from './rate-limits.ts';

/** Rate class of an operation. */
export type RateClass = 'quote' | 'order' | 'other';

/**
 * Client-side pacing for one set of credentials: one queue per rate class plus the
 * per-order modification count. Share one Pacer between everything that uses the same
 * credentials ({@link Pacer.shared}) so that together they never meet a 429.
 */
export class Pacer {
  private static readonly registry = new Map<string, Pacer>();
  readonly limiters: Readonly<Record<RateClass, RateLimiter>>;
  private readonly modifications = new Map<string, number>();

  constructor(
    clock: Clock,
    readonly limits: RateLimits = DEFAULT_RATE_LIMITS,
  ) {
    this.limiters = {
      quote: new RateLimiter(clock, limits.quote),
      order: new RateLimiter(clock, limits.order),
      other: new RateLimiter(clock, limits.other),
    };
  }

  /**
   * The Pacer of these credentials at this base URL, created on first use. The key is a
   * hash, so no credential is kept in the registry in the clear.
   */
  static shared(
    key: { baseUrl: string; appId: string },
    clock: Clock,
    limits: RateLimits = DEFAULT_RATE_LIMITS,
  ): Pacer {
    const id = createHash('sha256').update(`${key.baseUrl}\n${key.appId}`).digest('hex');
    let pacer = Pacer.registry.get(id);
    if (pacer === undefined) {
      pacer = new Pacer(clock, limits);
      Pacer.registry.set(id, pacer);
    }
    return pacer;
  }

  /** Waits for a slot of `rateClass`. */
  acquire(rateClass: RateClass, signal?: AbortSignal): Promise<void> {
    return this.limiters[rateClass].acquire(signal);
  }

  /** Modifications made so far to `orderId`. */
  modificationsOf(orderId: string): number {
    return this.modifications.get(orderId) ?? 0;
  }

  /** True when `orderId` may be modified once more. */
  canModify(orderId: string): boolean {
    return this.modificationsOf(orderId) < this.limits.modificationsPerOrder;
  }

  /** Counts one modification of `orderId`. */
  recordModification(orderId: string): void {
    this.modifications.set(orderId, this.modificationsOf(orderId) + 1);
  }

  /** Forgets finished orders so the map stays bounded on a long run. */
  forget(orderId: string): void {
    this.modifications.delete(orderId);
  }
}
