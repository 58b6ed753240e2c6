import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import { type RunningSimulator, type SimulatorOptions, startSimulator } from './start-simulator.ts';

const MON_0930 = Date.parse('2026-01-05T04:00:00Z');
const AUTH = { appId: 'sim-app', token: 'sim-token' };

let sim: RunningSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function start(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  sim = await startSimulator({ clock: new VirtualClock(MON_0930), ...options });
  return sim;
}

async function call(
  s: RunningSimulator,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = AUTH,
): Promise<{ status: number; json: unknown; headers: Headers }> {
  const init: RequestInit = { method, headers: { ...headers, 'content-type': 'application/json' } };
  if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await fetch(`${s.url}${path}`, init);
  const text = await res.text();
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, json, headers: res.headers };
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
  tags: 'lost-1',
  amo: false,
};

describe('startSimulator', () => {
  it('serves quotes in the success envelope, in the order of the tokens', async () => {
    const s = await start();
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await call(s, 'POST', '/info/quotes/ltp', [3045, 26000, 2885]);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      status: 'success',
      data: [{ token: 3045 }, { token: 26000 }, { token: 2885 }],
    });
    expect((await call(s, 'POST', '/info/quote/full', { token: 3045 })).json).toMatchObject({
      data: { token: 3045, bids: expect.any(Array) },
    });
  });

  it('refuses missing (401), wrong (403) and expired (401) credentials', async () => {
    const clock = new VirtualClock(MON_0930);
    const s = await start({ clock, tokenExpiresAt: MON_0930 + 60_000 });
    const missing = await call(s, 'GET', '/user/orders', undefined, {});
    expect(missing.status).toBe(401);
    expect(missing.json).toEqual({
      status: 'error',
      message: expect.any(String),
      errorCode: 'Unauthorized',
    });
    const wrong = await call(s, 'GET', '/user/orders', undefined, { ...AUTH, token: 'nope' });
    expect(wrong.status).toBe(403);
    expect((await call(s, 'GET', '/user/orders')).status).toBe(200);
    clock.advanceBy(60_000);
    const expired = await call(s, 'GET', '/user/orders');
    expect(expired.status).toBe(401);
    expect(expired.json).toMatchObject({ message: expect.stringMatching(/expired/i) });
    s.setCredentials({ token: 'day-2' });
    expect(
      (await call(s, 'GET', '/user/orders', undefined, { ...AUTH, token: 'day-2' })).status,
    ).toBe(200);
  });

  it('answers unknown routes 404 and wrong methods 405 with the error envelope', async () => {
    const s = await start();
    const nf = await call(s, 'GET', '/nope');
    expect(nf.status).toBe(404);
    expect(nf.json).toMatchObject({ status: 'error', errorCode: 'NotFoundError' });
    const na = await call(s, 'GET', '/info/greeks');
    expect(na.status).toBe(405);
    expect(na.headers.get('allow')).toBe('POST');
  });

  it('enforces the documented rate limits with 429, and can turn them off', async () => {
    const s = await start();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await call(s, 'POST', '/info/quote/ltp', { token: 3045 })).status);
    expect(statuses.slice(0, 10).every((x) => x === 200)).toBe(true);
    const limited = await call(s, 'POST', '/info/quote/ltp', { token: 3045 });
    expect(limited.status).toBe(429);
    expect(limited.json).toMatchObject({ status: 'error', errorCode: 'TooManyRequests' });
    expect(limited.headers.get('retry-after')).toBe('1');
    // Other routes have their own budget.
    expect((await call(s, 'GET', '/info/index-list')).status).toBe(200);
    await s.close();

    const free = await start({ rateLimits: false });
    for (let i = 0; i < 15; i++)
      expect((await call(free, 'POST', '/info/quote/ltp', { token: 3045 })).status).toBe(200);
  });

  it('limits orders per minute as configured, freeing the window as time passes', async () => {
    const clock = new VirtualClock(MON_0930);
    const s = await start({ clock, rateLimits: { ordersPerMinute: 3 } });
    for (let i = 0; i < 3; i++) {
      expect((await call(s, 'POST', '/order/regular', order)).status).toBe(200);
      clock.advanceBy(1_000);
    }
    expect((await call(s, 'POST', '/order/regular', order)).status).toBe(429);
    clock.advanceBy(60_000);
    expect((await call(s, 'POST', '/order/regular', order)).status).toBe(200);
  });

  it('loses the answer of an accepted order (the duplicate-order trap)', async () => {
    const s = await start();
    s.faults.set({ loseOrderResponses: 1 });
    await expect(
      fetch(`${s.url}/order/regular`, {
        method: 'POST',
        headers: AUTH,
        body: JSON.stringify(order),
      }),
    ).rejects.toThrow();
    const book = await call(s, 'GET', '/user/orders');
    expect(book.json).toMatchObject({ data: [{ tags: 'lost-1', orderStatus: 'COMPLETE' }] });
    expect((await call(s, 'POST', '/order/regular', order)).status).toBe(200);
    expect(s.faults.counts.lostOrderResponses).toBe(1);
  });

  it('injects 5xx, dropped connections and malformed bodies, scoped to routes', async () => {
    const s = await start({ rateLimits: false });
    s.faults.set({ failRate: 1, routes: ['indexList'] });
    const failed = await call(s, 'GET', '/info/index-list');
    expect(failed.status).toBe(503);
    expect(failed.json).toMatchObject({ status: 'error', errorCode: 'InternalServerError' });
    expect((await call(s, 'GET', '/info/holidays')).status).toBe(200);
    s.faults.set({ failRate: 0, malformedRate: 1 });
    const bad = await call(s, 'GET', '/info/index-list');
    expect(bad.status).toBe(200);
    expect(typeof bad.json).toBe('string');
    s.faults.set({ malformedRate: 0, dropRate: 1 });
    await expect(fetch(`${s.url}/info/index-list`, { headers: AUTH })).rejects.toThrow();
    s.faults.reset();
    expect((await call(s, 'GET', '/info/index-list')).status).toBe(200);
  });

  it('adds latency on the network clock', async () => {
    const net = new VirtualClock(0, { auto: true });
    const s = await start({ networkClock: net, faults: { latencyMs: 5_000 } });
    expect((await call(s, 'GET', '/info/holidays')).status).toBe(200);
    expect(net.now()).toBe(5_000);
  });

  it('counts requests per route', async () => {
    const s = await start();
    await call(s, 'POST', '/info/quote/ltp', { token: 3045 });
    await call(s, 'POST', '/info/quotes/ltp', [3045]);
    await call(s, 'GET', '/user/orders', undefined, {});
    await call(s, 'GET', '/nope');
    expect(s.stats.count('quote')).toBe(1);
    expect(s.stats.count('quotes')).toBe(1);
    expect(s.stats.count('orderBook')).toBe(1);
    expect(s.stats.count('placeOrder')).toBe(0);
    expect(s.stats.count('unknown')).toBe(1);
    expect(s.stats.total).toBe(4);
    expect(s.stats.responses(401)).toBe(1);
  });

  it('answers 400 for malformed JSON, empty bodies and schema violations', async () => {
    const s = await start();
    for (const [path, body] of [
      ['/info/quote/ltp', '{"token":'],
      ['/info/quote/ltp', ''],
      ['/info/quote/bogus', { token: 3045 }],
      ['/order/regular', { ...order, order: 'STOP' }],
      ['/order/regular', { ...order, quantity: 'ten' }],
      ['/order/special', order],
      ['/info/greeks', []],
    ] as const) {
      const r = await call(s, 'POST', path, body);
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(r.json).toMatchObject({ status: 'error', errorCode: 'BadRequestError' });
    }
  });
});
