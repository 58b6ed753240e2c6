import type { Clock } from '../../clock/clock.ts';
import { LiveClock } from '../../clock/live-clock.ts';
import type { RouteId } from './route-table.ts';

/** Classes of operation the service limits separately (api-facts.md). */
export type RequestClass = 'quote' | 'order' | 'other';

/** The class whose limit a request of `route` counts against. */
function requestClassOf(route: RouteId): RequestClass {
  if (route === 'quote' || route === 'quotes') return 'quote';
  return route === 'placeOrder' ? 'order' : 'other';
}

/** Arrivals of one class: the recent ones, and the most seen in any sliding second. */
interface Arrivals {
  total: number;
  recent: number[];
  maxPerSecond: number;
}

/** Plain-object view of {@link SimStats}, as served at `GET /__sim/stats`. */
export interface SimStatsSnapshot {
  routes: Record<string, number>;
  statuses: Record<string, number>;
  /** Requests per class and the most that arrived in any sliding 1 s window (network time). */
  classes: Record<RequestClass, { requests: number; maxPerSecond: number }>;
  /** 429s sent by the rate limiter (injected ones are counted with the faults). */
  rateLimited: number;
  /** Quotes served per token (a token in a refused batch is not served). */
  quotesServed: Record<string, number>;
  /** Quote requests that named each token, refused ones included: how often a client asks. */
  quotesAsked: Record<string, number>;
  /**
   * Tags of order placements a fault ended before any processing (dropped, failed,
   * malformed): the orders that were never placed, as a test checks a client's view by.
   */
  unprocessedOrderTags: string[];
}

/**
 * Requests the simulator received, per operation, and responses per HTTP status.
 * Counted on arrival, before authentication, throttling or faults, so a test can prove
 * what a client sent (for example that paper mode sent no order requests) and how fast
 * it sent it, as the service counts: the most arrivals of a class in any sliding second.
 *
 * @example
 * ```ts
 * sim.stats.count('placeOrder'); // 0 in paper mode
 * sim.stats.maxPerSecond('order'); // at most 10 for a well-paced client
 * ```
 */
export class SimStats {
  private readonly routes = new Map<RouteId | 'unknown', number>();
  private readonly statuses = new Map<number, number>();
  private readonly served = new Map<number, number>();
  private readonly asked = new Map<number, number>();
  private arrivals = SimStats.emptyArrivals();
  private limited = 0;
  private readonly unprocessed: string[] = [];

  /** `clock` times arrivals: the network's, so windows are real seconds on the CLI. */
  constructor(private readonly clock: Clock = new LiveClock()) {}

  private static emptyArrivals(): Record<RequestClass, Arrivals> {
    const a = (): Arrivals => ({ total: 0, recent: [], maxPerSecond: 0 });
    return { quote: a(), order: a(), other: a() };
  }

  /** Requests received for `route` (`unknown` for paths that match no operation). */
  count(route: RouteId | 'unknown'): number {
    return this.routes.get(route) ?? 0;
  }

  /** All requests received. */
  get total(): number {
    let n = 0;
    for (const v of this.routes.values()) n += v;
    return n;
  }

  /** Responses sent with HTTP `status` (dropped connections count as status 0). */
  responses(status: number): number {
    return this.statuses.get(status) ?? 0;
  }

  /** The most requests of `cls` that arrived within any sliding second. */
  maxPerSecond(cls: RequestClass): number {
    return this.arrivals[cls].maxPerSecond;
  }

  /** 429s sent by the rate limiter. */
  get rateLimited(): number {
    return this.limited;
  }

  /** Quotes served for `token`. */
  quotesServed(token: number): number {
    return this.served.get(token) ?? 0;
  }

  /** Quote requests (single or batched, answered or refused) that named `token`. */
  quotesAsked(token: number): number {
    return this.asked.get(token) ?? 0;
  }

  /** Counts as plain objects. */
  snapshot(): SimStatsSnapshot {
    const cls = (c: RequestClass) => ({
      requests: this.arrivals[c].total,
      maxPerSecond: this.arrivals[c].maxPerSecond,
    });
    return {
      routes: Object.fromEntries(this.routes),
      statuses: Object.fromEntries(this.statuses),
      classes: { quote: cls('quote'), order: cls('order'), other: cls('other') },
      rateLimited: this.limited,
      quotesServed: Object.fromEntries(this.served),
      quotesAsked: Object.fromEntries(this.asked),
      unprocessedOrderTags: [...this.unprocessed],
    };
  }

  /** Starts counting from zero. */
  reset(): void {
    this.routes.clear();
    this.statuses.clear();
    this.served.clear();
    this.asked.clear();
    this.unprocessed.length = 0;
    this.arrivals = SimStats.emptyArrivals();
    this.limited = 0;
  }

  /** @internal */
  recordRequest(route: RouteId | 'unknown'): void {
    this.routes.set(route, this.count(route) + 1);
    if (route === 'unknown') return;
    const now = this.clock.now();
    const a = this.arrivals[requestClassOf(route)];
    a.total++;
    // Arrivals at t and t' share a sliding second when t' - t < 1000.
    while (a.recent.length > 0 && (a.recent[0] ?? 0) <= now - 1_000) a.recent.shift();
    a.recent.push(now);
    a.maxPerSecond = Math.max(a.maxPerSecond, a.recent.length);
  }

  /** @internal */
  recordResponse(status: number): void {
    this.statuses.set(status, this.responses(status) + 1);
  }

  /** @internal A 429 from the rate limiter. */
  recordRateLimited(): void {
    this.limited++;
  }

  /** @internal A fault ended an order placement carrying `tag` before any processing. */
  recordUnprocessedOrder(tag: string): void {
    this.unprocessed.push(tag);
  }

  /** @internal A quote request named these tokens (before it is answered or refused). */
  recordAsked(tokens: readonly unknown[]): void {
    for (const t of tokens) if (typeof t === 'number') this.asked.set(t, this.quotesAsked(t) + 1);
  }

  /** @internal Quotes served for these tokens. */
  recordServed(tokens: readonly number[]): void {
    for (const t of tokens) this.served.set(t, this.quotesServed(t) + 1);
  }
}
