import type { FaultKind } from '../../../src/sim/http/fault-injector.ts';
import type { SimStatsSnapshot } from '../../../src/sim/http/sim-stats.ts';

/** An order as `GET /__sim/orders` lists it. */
export interface SimOrderView {
  id: string;
  tags: string;
  variety: string;
  order: string;
  token: number;
  transactionType: 'B' | 'S';
  quantity: number;
  /** Limit price, paise; 0 for market orders. */
  price: number;
  /** Stop trigger, paise; 0 when none. */
  triggerPrice: number;
  /** Modifications accepted so far. */
  modifications: number;
  filled: number;
  status: string;
  parentId: string | null;
  placedAt: string;
}

/** The test-only admin routes of a simulator child, with bounded requests. */
export class SimAdmin {
  constructor(
    readonly url: string,
    private readonly token: string,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const init: RequestInit = {
      method,
      headers: { 'x-sim-admin': this.token, 'content-type': 'application/json' },
      signal: AbortSignal.timeout(5_000),
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await fetch(`${this.url}/__sim/${path}`, init);
    const json = (await res.json()) as T;
    if (res.status !== 200)
      throw new Error(`${method} /__sim/${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  stats(): Promise<
    SimStatsSnapshot & {
      faults: Record<FaultKind | 'lostOrderResponses' | 'rejectedOrders', number>;
      marketTime: string;
    }
  > {
    return this.call('GET', 'stats');
  }

  orders(): Promise<{ orders: SimOrderView[]; positions: Record<string, number> }> {
    return this.call('GET', 'orders');
  }

  faults(settings: Record<string, unknown>): Promise<unknown> {
    return this.call('POST', 'faults', settings);
  }

  credentials(next: {
    token?: string;
    appId?: string;
    tokenExpiresAt?: string | null;
  }): Promise<unknown> {
    return this.call('POST', 'credentials', next);
  }
}

/** Tags placed more than once at the exchange (stop legs share their main order's tag). */
export function duplicateTags(orders: readonly SimOrderView[]): string[] {
  const seen = new Map<string, number>();
  for (const o of orders) {
    if (o.parentId !== null || o.tags === '') continue;
    seen.set(o.tags, (seen.get(o.tags) ?? 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([tag]) => tag);
}
