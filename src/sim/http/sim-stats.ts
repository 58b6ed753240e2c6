import type { RouteId } from './route-table.ts';

/**
 * Requests the simulator received, per operation, and responses per HTTP status.
 * Counted on arrival, before authentication, throttling or faults, so a test can prove
 * what a client sent (for example that paper mode sent no order requests).
 *
 * @example
 * ```ts
 * sim.stats.count('placeOrder'); // 0 in paper mode
 * sim.stats.count('quote') + sim.stats.count('quotes');
 * ```
 */
export class SimStats {
  private readonly routes = new Map<RouteId | 'unknown', number>();
  private readonly statuses = new Map<number, number>();

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

  /** Counts per route and per status, as plain objects. */
  snapshot(): { routes: Record<string, number>; statuses: Record<string, number> } {
    return {
      routes: Object.fromEntries(this.routes),
      statuses: Object.fromEntries(this.statuses),
    };
  }

  /** Starts counting from zero. */
  reset(): void {
    this.routes.clear();
    this.statuses.clear();
  }

  /** @internal */
  recordRequest(route: RouteId | 'unknown'): void {
    this.routes.set(route, this.count(route) + 1);
  }

  /** @internal */
  recordResponse(status: number): void {
    this.statuses.set(status, this.responses(status) + 1);
  }
}
