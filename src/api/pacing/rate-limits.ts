import type { RateWindow } from './rate-limiter.ts';

/** Client-side limits, per credentials. Defaults follow the documented service limits. */
export interface RateLimits {
  /** Quote operations (single and list). */
  quote: RateWindow[];
  /** Order placement. */
  order: RateWindow[];
  /** Everything else: modify, cancel, books, history, utilities. */
  other: RateWindow[];
  /** Modifications allowed per order before it must be cancelled and placed anew. */
  modificationsPerOrder: number;
}

/** The documented limits of the real service (api-facts.md). */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  quote: [{ limit: 10, intervalMs: 1_000 }],
  order: [
    { limit: 10, intervalMs: 1_000 },
    { limit: 200, intervalMs: 60_000 },
    { limit: 3_000, intervalMs: 86_400_000 },
  ],
  other: [{ limit: 100, intervalMs: 1_000 }],
  modificationsPerOrder: 25,
};
