import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import type { Clock } from '../../clock/clock.ts';
import type { SimExchange } from '../sim-exchange.ts';
import type { FaultInjector } from './fault-injector.ts';
import { ROUTE_IDS } from './route-table.ts';
import type { SimCredentials } from './sim-auth.ts';
import type { SimStats } from './sim-stats.ts';

/** Prefix of the test-only admin routes; served only when an admin token is set. */
export const ADMIN_PREFIX = '/__sim/';
/** Header carrying the admin token. */
const ADMIN_HEADER = 'x-sim-admin';

const rate = z.number().min(0).max(1);
const instant = z.union([z.iso.datetime({ offset: true }), z.null()]);
const faultsBody = z.strictObject({
  reset: z.boolean().optional(),
  latencyMs: z.number().int().min(0).max(600_000).optional(),
  failRate: rate.optional(),
  dropRate: rate.optional(),
  malformedRate: rate.optional(),
  throttleRate: rate.optional(),
  throttleRetryAfter: z.string().max(64).optional(),
  redirectRate: rate.optional(),
  redirectStatus: z.union([z.literal(302), z.literal(307)]).optional(),
  redirectTo: z.url({ protocol: /^https?$/ }).optional(),
  stallRate: rate.optional(),
  trickleRate: rate.optional(),
  trickleIntervalMs: z.number().int().min(1).max(600_000).optional(),
  loseOrderResponses: z.number().int().min(0).optional(),
  rejectOrders: z.number().int().min(0).optional(),
  tokenExpiresAt: instant.optional(),
  routes: z.array(z.enum(ROUTE_IDS)).nullable().optional(),
});
const credentialsBody = z.strictObject({
  appId: z.string().min(1).optional(),
  token: z.string().min(1).optional(),
  tokenExpiresAt: instant.optional(),
});

/** What the admin routes act on. */
export interface AdminContext {
  token: string;
  exchange: SimExchange;
  faults: FaultInjector;
  stats: SimStats;
  clock: Clock;
  setCredentials(next: Partial<SimCredentials> & { tokenExpiresAt?: number }): void;
}

const epoch = (v: string | null | undefined) =>
  v === undefined ? undefined : v === null ? undefined : Date.parse(v);

/** Every order at the exchange, with what a test counts duplicates and risk by. */
function ordersView(exchange: SimExchange) {
  const positions: Record<string, number> = {};
  const orders = exchange.engine.orders().map((o) => {
    const signed = o.params.transactionType === 'B' ? o.filled : -o.filled;
    positions[o.params.token] = (positions[o.params.token] ?? 0) + signed;
    return {
      id: o.id,
      tags: o.params.tags,
      variety: o.params.variety,
      order: o.params.order,
      token: o.params.token,
      transactionType: o.params.transactionType,
      quantity: o.params.quantity,
      price: o.params.price,
      triggerPrice: o.params.triggerPrice,
      modifications: o.modifications,
      filled: o.filled,
      status: o.status,
      parentId: o.parentId ?? null,
      placedAt: new Date(o.placedAt).toISOString(),
    };
  });
  return { orders, positions };
}

/**
 * Serves the test-only admin routes under `/__sim/` (guarded by the `x-sim-admin`
 * header): `GET stats`, `GET orders`, `POST faults`, `POST credentials`. Answers
 * 403 for a wrong admin token and 404 for an unknown admin path. Never counted in stats.
 */
export function serveAdmin(
  req: IncomingMessage,
  res: ServerResponse,
  raw: Buffer,
  ctx: AdminContext,
): void {
  const reply = (status: number, data: unknown): void => {
    const body = JSON.stringify(data);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  };
  if (req.headers[ADMIN_HEADER] !== ctx.token) {
    reply(403, { status: 'error', message: 'admin token required' });
    return;
  }
  const path = (req.url ?? '').split('?')[0]?.slice(ADMIN_PREFIX.length) ?? '';
  const key = `${req.method ?? 'GET'} ${path}`;
  const body = (): unknown => {
    try {
      return JSON.parse(raw.toString('utf8') || '{}');
    } catch {
      return undefined;
    }
  };
  const [status, data] = answer(key, body, ctx);
  reply(status, data);
}

function answer(key: string, body: () => unknown, ctx: AdminContext): [number, unknown] {
  if (key === 'GET stats') {
    const marketTime = new Date(ctx.clock.now()).toISOString();
    return [200, { ...ctx.stats.snapshot(), faults: ctx.faults.counts, marketTime }];
  }
  if (key === 'GET orders') return [200, ordersView(ctx.exchange)];
  if (key === 'POST faults') {
    const parsed = faultsBody.safeParse(body());
    if (!parsed.success) return [400, { status: 'error', message: parsed.error.message }];
    const { reset, tokenExpiresAt, routes, ...rest } = parsed.data;
    if (reset === true) ctx.faults.reset();
    ctx.faults.set(Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)));
    if (tokenExpiresAt !== undefined) ctx.faults.set({ tokenExpiresAt: epoch(tokenExpiresAt) });
    if (routes !== undefined) ctx.faults.set({ routes: routes ?? undefined });
    return [200, { ...ctx.faults.settings }];
  }
  if (key === 'POST credentials') {
    const parsed = credentialsBody.safeParse(body());
    if (!parsed.success) return [400, { status: 'error', message: parsed.error.message }];
    const { tokenExpiresAt, appId, token } = parsed.data;
    const expires =
      tokenExpiresAt === undefined ? ctx.faults.settings.tokenExpiresAt : epoch(tokenExpiresAt);
    ctx.setCredentials({
      ...(appId === undefined ? {} : { appId }),
      ...(token === undefined ? {} : { token }),
      ...(expires === undefined ? {} : { tokenExpiresAt: expires }),
    });
    return [200, { status: 'success' }];
  }
  return [404, { status: 'error', message: `No admin route ${key}` }];
}
