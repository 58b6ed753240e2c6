import type { Clock } from '../../clock/clock.ts';
import { istDayStart } from '../../domain/ist.ts';
import type { RouteId } from './route-table.ts';

/** Request limits, as documented for the real service (api-facts.md). */
export interface SimRateLimits {
  /** Quote operations per second; default 10. */
  quotesPerSecond: number;
  /** Order placements per second; default 10. */
  ordersPerSecond: number;
  /** Order placements per minute; default 200. */
  ordersPerMinute: number;
  /** Order placements per IST day; default 3000. */
  ordersPerDay: number;
  /** Every other operation, per second; default 100. */
  othersPerSecond: number;
}

/** The documented limits of the real service. */
export const DEFAULT_SIM_RATE_LIMITS: Readonly<SimRateLimits> = {
  quotesPerSecond: 10,
  ordersPerSecond: 10,
  ordersPerMinute: 200,
  ordersPerDay: 3000,
  othersPerSecond: 100,
};

/** Outcome of {@link SimRateLimiter.admit}. */
export type Admission = { ok: true } | { ok: false; message: string; retryAfterMs: number };

interface Window {
  label: string;
  ms: number;
  limit: number;
  hits: number[];
}

/**
 * Sliding-window limits per class of operation (quotes, placements, the rest). A refused
 * request does not use up the window.
 */
export class SimRateLimiter {
  private readonly clock: Clock;
  private readonly windows: Record<'quote' | 'order' | 'other', Window[]>;
  private day = { start: Number.NaN, count: 0 };
  private readonly perDay: number;

  constructor(limits: SimRateLimits, clock: Clock) {
    this.clock = clock;
    const w = (label: string, ms: number, limit: number): Window => ({
      label,
      ms,
      limit,
      hits: [],
    });
    this.windows = {
      quote: [w('quote requests per second', 1_000, limits.quotesPerSecond)],
      order: [
        w('orders per second', 1_000, limits.ordersPerSecond),
        w('orders per minute', 60_000, limits.ordersPerMinute),
      ],
      other: [w('requests per second', 1_000, limits.othersPerSecond)],
    };
    this.perDay = limits.ordersPerDay;
  }

  /** Admits or refuses one request of `route` now. */
  admit(route: RouteId): Admission {
    const now = this.clock.now();
    const cls =
      route === 'quote' || route === 'quotes'
        ? 'quote'
        : route === 'placeOrder'
          ? 'order'
          : 'other';
    const windows = this.windows[cls];
    for (const win of windows) {
      while (win.hits.length > 0 && (win.hits[0] ?? 0) <= now - win.ms) win.hits.shift();
      if (win.hits.length >= win.limit) {
        return {
          ok: false,
          message: `Too many requests: at most ${win.limit} ${win.label}`,
          retryAfterMs: Math.max(1, (win.hits[0] ?? now) + win.ms - now),
        };
      }
    }
    if (cls === 'order') {
      const start = istDayStart(now);
      if (start !== this.day.start) this.day = { start, count: 0 };
      if (this.day.count >= this.perDay) {
        return {
          ok: false,
          message: `Too many requests: at most ${this.perDay} orders per day`,
          retryAfterMs: start + 86_400_000 - now,
        };
      }
      this.day.count++;
    }
    for (const win of windows) win.hits.push(now);
    return { ok: true };
  }
}
