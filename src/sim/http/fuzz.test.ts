import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import { Prng } from '../prng.ts';
import { type RunningSimulator, startSimulator } from './start-simulator.ts';

const AUTH = { appId: 'sim-app', token: 'sim-token' };
const PER_ROUTE = 40;

const validOrder = {
  exchange: 'NSE',
  token: '3045',
  symbol: 'SBIN-EQ',
  quantity: '1',
  disclosedQty: '0',
  product: 'I',
  transactionType: 'B',
  order: 'LMT',
  price: '700.00',
  triggerPrice: '0',
  validity: 'DAY',
  tags: 'fuzz',
  amo: false,
};

const VALID: Record<string, unknown> = {
  '/info/quote/full': { token: 3045 },
  '/info/quotes/ohlcv': [3045, 26000],
  '/order/regular': validOrder,
  '/order/cover': { ...validOrder, bookLossPrice: '690.00' },
  '/info/option-chain': { token: '26000', exchange: 'INDEX', count: '3', expiry: '13-JAN-2026' },
  '/info/greeks': [40000],
};

const SCALARS: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  2 ** 53 + 1,
  '',
  ' ',
  'NaN',
  'Infinity',
  '-0',
  '1e5',
  '99999999999999999999999',
  '0.0000001',
  '12.345',
  'LMT',
  'regular',
  '\u0000',
  '💥',
  'x'.repeat(5000),
];

function randomValue(rng: Prng, depth = 0): unknown {
  const r = rng.int(depth > 2 ? 1 : 4);
  if (r === 0) return SCALARS[rng.int(SCALARS.length)];
  if (r === 1) return Array.from({ length: rng.int(4) }, () => randomValue(rng, depth + 1));
  if (r === 2) {
    const keys = [
      'token',
      'exchange',
      'quantity',
      'price',
      'order',
      'amo',
      '__proto__',
      'constructor',
    ];
    return Object.fromEntries(
      Array.from({ length: rng.int(5) }, () => [
        keys[rng.int(keys.length)],
        randomValue(rng, depth + 1),
      ]),
    );
  }
  return rng.int(1000) - 500;
}

function mutate(rng: Prng, valid: unknown): unknown {
  if (Array.isArray(valid)) {
    const copy = [...valid];
    copy[rng.int(copy.length + 1)] = randomValue(rng);
    return copy;
  }
  if (valid !== null && typeof valid === 'object') {
    const copy: Record<string, unknown> = { ...(valid as Record<string, unknown>) };
    const keys = Object.keys(copy);
    const key = keys[rng.int(keys.length)] ?? 'x';
    if (rng.next() < 0.3) delete copy[key];
    else copy[key] = randomValue(rng);
    return copy;
  }
  return randomValue(rng);
}

function randomBody(rng: Prng, path: string): string {
  const kind = rng.int(4);
  const valid = VALID[path];
  if (kind === 0) return JSON.stringify(randomValue(rng));
  if (kind === 1 && valid !== undefined) return JSON.stringify(mutate(rng, valid));
  if (kind === 2) {
    const text = JSON.stringify(valid ?? randomValue(rng)) ?? '';
    return text.slice(0, rng.int(text.length + 1)) + ['', '}', ']]', ',', '"'][rng.int(5)];
  }
  return Array.from({ length: rng.int(40) }, () => String.fromCharCode(rng.int(128))).join('');
}

const ROUTES: Array<[string, string]> = [
  ['POST', '/info/quote/full'],
  ['POST', '/info/quote/ltp'],
  ['POST', '/info/quotes/ohlcv'],
  ['POST', '/order/regular'],
  ['POST', '/order/cover'],
  ['PATCH', '/order/regular/1000000001'],
  ['DELETE', '/order/regular/1000000001'],
  ['GET', '/order/1000000001'],
  ['GET', '/user/orders'],
  ['GET', '/user/trades'],
  ['GET', '/info/holidays'],
  ['GET', '/info/index-list'],
  ['GET', '/info/option-chain-symbols'],
  ['POST', '/info/option-chain'],
  ['POST', '/info/greeks'],
  ['PUT', '/order/regular'],
  ['POST', '/order/%E0%A4%A'],
];

describe('fuzz: random bodies on every route', () => {
  let sim: RunningSimulator;
  const internalErrors: unknown[] = [];

  beforeAll(async () => {
    sim = await startSimulator({
      clock: new VirtualClock(Date.parse('2026-01-05T04:00:00Z')),
      rateLimits: false,
      onError: (err) => internalErrors.push(err),
    });
  });
  afterAll(() => sim.close());

  it.each(ROUTES)('%s %s never answers 5xx and always with an envelope', async (method, path) => {
    const rng = new Prng(path.length * 31 + method.length);
    for (let i = 0; i < PER_ROUTE; i++) {
      const body = randomBody(rng, path);
      const res = await fetch(`${sim.url}${path}`, {
        method,
        headers: { ...AUTH, 'content-type': 'application/json' },
        ...(method === 'GET' ? {} : { body }),
      });
      const text = await res.text();
      const context = `${method} ${path} ${body.slice(0, 200)} -> ${res.status} ${text.slice(0, 200)}`;
      expect([200, 400, 404, 405], context).toContain(res.status);
      const json = JSON.parse(text) as { status: string; errorCode?: string };
      if (res.status === 200) expect(json.status, context).toBe('success');
      else expect(json, context).toMatchObject({ status: 'error', errorCode: expect.any(String) });
    }
    expect(internalErrors).toEqual([]);
    const ok = await fetch(`${sim.url}/info/index-list`, { headers: AUTH });
    expect(ok.status).toBe(200);
  });

  it('reached both the handlers and the validators', () => {
    // Mutations of valid bodies must sometimes pass, or the fuzz only tested the schemas.
    expect(sim.stats.responses(200)).toBeGreaterThan(20);
    expect(sim.stats.responses(400)).toBeGreaterThan(200);
    expect(sim.stats.responses(500) + sim.stats.responses(503)).toBe(0);
  });

  it('refuses a body over the size limit with 413', async () => {
    const res = await fetch(`${sim.url}/info/greeks`, {
      method: 'POST',
      headers: AUTH,
      body: `[${'1,'.repeat(600_000)}1]`,
    });
    expect(res.status).toBe(413);
  });
});
