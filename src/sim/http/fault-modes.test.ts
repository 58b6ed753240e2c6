import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import { type RunningSimulator, type SimulatorOptions, startSimulator } from './start-simulator.ts';

const MON_0930 = Date.parse('2026-01-05T04:00:00Z');
const AUTH = { appId: 'sim-app', token: 'sim-token', 'content-type': 'application/json' };
const ADMIN = { 'x-sim-admin': 'adm', 'content-type': 'application/json' };

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  sim = await startSimulator({ clock: new VirtualClock(MON_0930), adminToken: 'adm', ...options });
  return sim;
}

const order = {
  exchange: 'NSE',
  token: '3045',
  symbol: 'SBIN-EQ',
  quantity: '1',
  disclosedQty: '0',
  product: 'I',
  transactionType: 'B',
  order: 'MKT',
  price: '0',
  triggerPrice: '0',
  validity: 'DAY',
  tags: 'tag-1',
  amo: false,
};

const post = (s: RunningSimulator, path: string, body: unknown, headers = AUTH) =>
  fetch(`${s.url}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
    redirect: 'manual',
  });
const admin = async (s: RunningSimulator, method: string, path: string, body?: unknown) => {
  const init: RequestInit = { method, headers: ADMIN };
  if (body !== undefined) init.body = JSON.stringify(body);
  const res = await fetch(`${s.url}/__sim/${path}`, init);
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};

describe('fault modes and the test-only admin routes', () => {
  it('hides the admin routes without an admin token and guards them with it', async () => {
    const plain = await startSimulator({ clock: new VirtualClock(MON_0930) });
    try {
      const r = await fetch(`${plain.url}/__sim/stats`, { headers: ADMIN });
      expect(r.status).toBe(404);
    } finally {
      await plain.close();
    }
    const s = await start();
    expect((await fetch(`${s.url}/__sim/stats`, { headers: { 'x-sim-admin': 'x' } })).status).toBe(
      403,
    );
    expect((await admin(s, 'GET', 'stats')).status).toBe(200);
    expect(s.stats.total).toBe(0); // admin calls are not the API's traffic
  });

  it('injects 429 with a chosen Retry-After, apart from the rate limiter', async () => {
    const s = await start();
    await admin(s, 'POST', 'faults', { throttleRate: 1, throttleRetryAfter: '99999999999' });
    const r = await post(s, '/order/regular', order);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('99999999999');
    expect(s.exchange.engine.orders()).toHaveLength(0);
    const stats = await admin(s, 'GET', 'stats');
    expect(stats.json).toMatchObject({ rateLimited: 0, faults: { throttle: 1 } });
  });

  it('redirects to another origin without processing', async () => {
    const s = await start();
    s.faults.set({ redirectRate: 1, redirectStatus: 307, redirectTo: 'http://127.0.0.2:8080' });
    const r = await post(s, '/order/regular', order);
    expect(r.status).toBe(307);
    expect(r.headers.get('location')).toBe('http://127.0.0.2:8080/order/regular');
    expect(s.exchange.engine.orders()).toHaveLength(0);
  });

  it('stalls a body after its headers, the work done', async () => {
    const s = await start();
    s.faults.set({ stallRate: 1, routes: ['placeOrder'] });
    const r = await post(s, '/order/regular', order);
    expect(r.status).toBe(200); // headers arrived
    const reader = r.body?.getReader();
    const first = await reader?.read();
    expect(first?.done).toBe(false);
    // Bounded wait on real I/O: the rest of the body does not come.
    const rest = await Promise.race([
      reader?.read().then(() => 'more'),
      new Promise((resolve) => setTimeout(() => resolve('stalled'), 300)),
    ]);
    expect(rest).toBe('stalled');
    expect(s.exchange.engine.orders().map((o) => o.params.tags)).toEqual(['tag-1']);
    await reader?.cancel();
  });

  it('trickles a body one byte per interval of the network clock', async () => {
    const net = new VirtualClock(0);
    const s = await start({ networkClock: net });
    s.faults.set({ trickleRate: 1, trickleIntervalMs: 1_000 });
    const r = await fetch(`${s.url}/info/holidays`, { headers: AUTH });
    const reader = r.body?.getReader();
    const first = await reader?.read();
    expect(first?.value?.length).toBe(1);
    const next = reader?.read();
    net.advanceBy(1_000);
    expect((await next)?.value?.length).toBe(1);
    await reader?.cancel();
  });

  it('counts the most arrivals per class in any sliding second, and quotes served per token', async () => {
    const net = new VirtualClock(0);
    const s = await start({ networkClock: net, rateLimits: false });
    for (let i = 0; i < 4; i++) await post(s, '/info/quotes/ltp', [3045, 2885]);
    net.advanceBy(999);
    for (let i = 0; i < 3; i++) await post(s, '/info/quote/ltp', { token: 3045 });
    net.advanceBy(1);
    await post(s, '/info/quote/ltp', { token: 3045 }); // the first four have left the window
    const stats = await admin(s, 'GET', 'stats');
    expect(stats.json).toMatchObject({
      classes: { quote: { requests: 8, maxPerSecond: 7 }, order: { requests: 0, maxPerSecond: 0 } },
      quotesServed: { '3045': 8, '2885': 4 },
    });
  });

  it('counts the tokens each quote request asked for, refused batches included', async () => {
    const s = await start({ rateLimits: false });
    await post(s, '/info/quotes/ltp', [3045, 99_999]); // refused: an unknown token
    await post(s, '/info/quote/ltp', { token: 99_999 }); // refused too
    await post(s, '/info/quotes/ltp', [3045]);
    const stats = await admin(s, 'GET', 'stats');
    expect(stats.json).toMatchObject({
      quotesServed: { '3045': 1 },
      quotesAsked: { '3045': 2, '99999': 2 },
    });
    expect((stats.json as { quotesServed: object }).quotesServed).not.toHaveProperty('99999');
  });

  it('lists orders with their tags and net positions', async () => {
    const s = await start();
    await post(s, '/order/regular', order);
    await post(s, '/order/regular', { ...order, tags: 'tag-2', quantity: '3' });
    const r = await admin(s, 'GET', 'orders');
    expect(r.json).toMatchObject({
      orders: [
        { tags: 'tag-1', status: 'COMPLETE', filled: 1 },
        { tags: 'tag-2', status: 'COMPLETE', filled: 3 },
      ],
      positions: { '3045': 4 },
    });
  });

  it('expires the token at a chosen instant and accepts a new one at run time', async () => {
    const clock = new VirtualClock(MON_0930);
    const s = await start({ clock });
    const at = new Date(MON_0930 + 60_000).toISOString();
    expect((await admin(s, 'POST', 'faults', { tokenExpiresAt: at })).status).toBe(200);
    clock.advanceBy(60_000);
    expect((await post(s, '/info/quote/ltp', { token: 3045 })).status).toBe(401);
    await admin(s, 'POST', 'credentials', { token: 'day-2', tokenExpiresAt: null });
    expect((await post(s, '/info/quote/ltp', { token: 3045 })).status).toBe(403);
    const fresh = { ...AUTH, token: 'day-2' };
    expect((await post(s, '/info/quote/ltp', { token: 3045 }, fresh)).status).toBe(200);
    expect((await admin(s, 'POST', 'faults', { bogus: 1 })).status).toBe(400);
  });
});
