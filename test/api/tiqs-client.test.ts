import { inspect } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidResponseError } from '../../src/api/errors/invalid-response-error.ts';
import { NetworkError } from '../../src/api/errors/network-error.ts';
import { OutcomeUnknownError } from '../../src/api/errors/outcome-unknown-error.ts';
import { RateLimitedError } from '../../src/api/errors/rate-limited-error.ts';
import { RefusedError } from '../../src/api/errors/refused-error.ts';
import { SessionError } from '../../src/api/errors/session-error.ts';
import { TimeoutError } from '../../src/api/errors/timeout-error.ts';
import { Pacer } from '../../src/api/pacing/pacer.ts';
import { TiqsClient } from '../../src/api/tiqs-client.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { createLogger } from '../../src/logging/create-logger.ts';
import {
  createTestServer,
  type Reply,
  type SeenRequest,
  type TestServer,
} from '../helpers/create-test-server.ts';
import * as fx from '../helpers/fixtures.ts';

const APP_ID = 'app-secret-id-7f3a';
const TOKEN = 'eyJ.secret-token-value-91c2';

const ok = (data: unknown): Reply => ({ json: { data, status: 'success' } });

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(handler: (req: SeenRequest, i: number) => Reply | Promise<Reply>) {
  server = await createTestServer(handler);
  return server;
}

function client(url: string, extra: Partial<ConstructorParameters<typeof TiqsClient>[0]> = {}) {
  return new TiqsClient({
    baseUrl: url,
    appId: APP_ID,
    token: TOKEN,
    clock: new VirtualClock(1_763_600_000_000, { auto: true }),
    random: () => 0.5,
    ...extra,
  });
}

/** Routes of a fake service answering every operation with spec-shaped data. */
function fakeService(req: SeenRequest): Reply {
  const route = `${req.method} ${req.url}`;
  const body = req.body === '' ? undefined : JSON.parse(req.body);
  const byMode = { ltp: fx.ltpQuote, ohlcv: fx.ohlcvQuote, full: fx.fullQuote } as const;
  let m = /^POST \/info\/quote\/(ltp|ohlcv|full)$/.exec(route);
  if (m) return ok({ ...byMode[m[1] as keyof typeof byMode], token: body.token });
  m = /^POST \/info\/quotes\/(ltp|ohlcv|full)$/.exec(route);
  if (m)
    return ok(
      (body as number[]).map((token) => ({ ...byMode[m?.[1] as keyof typeof byMode], token })),
    );
  if (/^POST \/order\/(regular|cover)$/.test(route)) {
    return ok({ orderNo: '24112000000001', requestTime: '10:15:01 20-11-2026' });
  }
  if (/^PATCH \/order\/(regular|cover)\/\d+$/.test(route)) return ok({ message: 'Order modified' });
  if (/^DELETE \/order\/(regular|cover)\/\d+$/.test(route)) {
    return ok({ message: 'Cancellation request accepted' });
  }
  if (/^GET \/order\/\d+$/.test(route)) return ok([fx.orderHistoryRecord]);
  if (route === 'GET /user/orders') return ok([fx.orderBookRecord]);
  if (route === 'GET /user/trades') return ok([fx.tradeBookRecord]);
  if (route === 'GET /info/holidays') {
    return ok({
      holidays: { '26-01-2026': 'Republic Day' },
      specialTradingDays: { '08-11-2026': ['18:00-19:00'] },
    });
  }
  if (route === 'GET /info/index-list') return ok([{ name: 'NIFTY 50', token: '26000' }]);
  if (route === 'GET /info/option-chain-symbols')
    return ok({ NIFTY: ['26-NOV-2026', '31-DEC-2026'] });
  if (route === 'POST /info/option-chain') {
    return ok([
      {
        exchange: 'NFO',
        symbol: 'NIFTY26NOV26000CE',
        token: '40001',
        optionType: 'CE',
        strikePrice: '26000.00',
        pricePrecision: '2',
        tickSize: '0.05',
        lotSize: '75',
      },
      {
        exchange: 'NFO',
        symbol: 'NIFTY26NOV26000PE',
        token: '40002',
        optionType: 'PE',
        strikePrice: '26000.00',
        pricePrecision: '2',
        tickSize: '0.05',
        lotSize: '75',
      },
    ]);
  }
  if (route === 'POST /info/greeks') {
    return ok(
      (body as number[]).map(() => ({
        iv: 0.14,
        delta: 0.52,
        gamma: 0.0004,
        theta: -12.5,
        vega: 9.1,
      })),
    );
  }
  return {
    status: 404,
    json: { status: 'error', message: `no route ${route}`, errorCode: 'NotFoundError' },
  };
}

describe('TiqsClient: every operation over loopback HTTP', () => {
  it('calls all 15 operations with the auth headers and the spec shapes', async () => {
    const s = await start(fakeService);
    const c = client(s.url);
    for (const mode of ['ltp', 'ohlcv', 'full'] as const) {
      expect((await c.quote(mode, 3045)).token).toBe(3045);
      const list = await c.quotes(mode, [3045, 26000, 11536]);
      expect(list.map((q) => q.token)).toEqual([3045, 26000, 11536]);
    }
    const full = await c.quote('full', 3045);
    expect(full.asks).toHaveLength(5);
    expect(full.bids[0]?.price).toBe(80190);

    for (const variety of ['regular', 'cover'] as const) {
      const placed = await c.placeOrder(variety, {
        ...fx.placeBody,
        ...(variety === 'cover' ? { bookLossPrice: '790.00' } : {}),
      });
      expect(placed.orderNo).toBe('24112000000001');
      const { symbol: _symbol, ...modifyBody } = fx.placeBody;
      expect(
        (await c.modifyOrder(variety, placed.orderNo, { ...modifyBody, price: '802.00' })).message,
      ).toBe('Order modified');
      expect((await c.cancelOrder(variety, placed.orderNo)).message).toMatch(/accepted/);
    }
    expect((await c.orderHistory('24112000000001'))[0]?.reportType).toBe('New');
    expect((await c.orderBook())[0]?.tags).toBe('tr-abc');
    expect((await c.tradeBook())[0]?.fillID).toBe('7001');
    expect((await c.holidays()).specialTradingDays['08-11-2026']).toEqual(['18:00-19:00']);
    expect(await c.indexList()).toEqual([{ name: 'NIFTY 50', token: '26000' }]);
    expect((await c.optionChainSymbols()).NIFTY).toContain('26-NOV-2026');
    const chain = await c.optionChain({
      token: '26000',
      exchange: 'INDEX',
      count: '1',
      expiry: '26-NOV-2026',
    });
    expect(chain.map((e) => e.optionType)).toEqual(['CE', 'PE']);
    expect(await c.greeks([40001, 40002])).toHaveLength(2);

    const routes = new Set(s.requests.map((r) => `${r.method} ${r.url.replace(/\d{6,}/, ':id')}`));
    expect(routes).toEqual(
      new Set([
        'POST /info/quote/ltp',
        'POST /info/quote/ohlcv',
        'POST /info/quote/full',
        'POST /info/quotes/ltp',
        'POST /info/quotes/ohlcv',
        'POST /info/quotes/full',
        'POST /order/regular',
        'PATCH /order/regular/:id',
        'DELETE /order/regular/:id',
        'POST /order/cover',
        'PATCH /order/cover/:id',
        'DELETE /order/cover/:id',
        'GET /order/:id',
        'GET /user/orders',
        'GET /user/trades',
        'GET /info/holidays',
        'GET /info/index-list',
        'GET /info/option-chain-symbols',
        'POST /info/option-chain',
        'POST /info/greeks',
      ]),
    );
    for (const r of s.requests) {
      expect(r.headers.appid).toBe(APP_ID);
      expect(r.headers.token).toBe(TOKEN);
      if (r.body === '') expect(r.headers['content-type']).toBeUndefined();
      else expect(r.headers['content-type']).toMatch(/^application\/json/);
    }
    const place = s.requests.find((r) => r.url === '/order/regular');
    expect(JSON.parse(place?.body ?? '{}')).toMatchObject({
      price: '801.90',
      amo: false,
      tags: 'tr-test-1',
    });
    const quotes = s.requests.find((r) => r.url === '/info/quotes/ltp');
    expect(JSON.parse(quotes?.body ?? '')).toEqual([3045, 26000, 11536]);
  });

  it('gives a placement without a tag a fresh unique one', async () => {
    const s = await start(fakeService);
    const c = client(s.url);
    const { tags: _t, ...untagged } = fx.placeBody;
    await c.placeOrder('regular', untagged);
    await c.placeOrder('regular', untagged);
    const tags = s.requests.map((r) => JSON.parse(r.body).tags as string);
    expect(tags[0]).toMatch(/^tr-[0-9a-f]{20}$/);
    expect(tags[0]).not.toBe(tags[1]);
  });
});

describe('TiqsClient: validation', () => {
  it('names the operation and field path of a schema mismatch', async () => {
    const s = await start(() =>
      ok([{ ...fx.ltpQuote }, { token: 26000, ltp: '2590000', close: 1 }]),
    );
    const err = await client(s.url)
      .quotes('ltp', [3045, 26000])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidResponseError);
    expect(err).toMatchObject({ operation: 'quotes:ltp', path: 'data[1].ltp' });
    expect((err as Error).message).toContain('data[1].ltp');
  });

  it('rejects a body that is not JSON, and a reply out of token order', async () => {
    const s = await start((_req, i) => (i === 0 ? { text: '<html>oops' } : ok([fx.ltpQuote])));
    const c = client(s.url);
    await expect(c.orderBook()).rejects.toBeInstanceOf(InvalidResponseError);
    await expect(c.quotes('ltp', [26000])).rejects.toMatchObject({ path: 'data[0].token' });
  });

  it('rejects a wrong order-record format', async () => {
    const s = await start(() => ok([{ ...fx.orderBookRecord, timeStamp: '2026-11-20 10:15' }]));
    await expect(client(s.url).orderBook()).rejects.toMatchObject({ path: 'data[0].timeStamp' });
  });
});

describe('TiqsClient: errors and retries', () => {
  it.each([401, 403])('maps HTTP %i to SessionError without retrying', async (status) => {
    const s = await start(() => ({
      status,
      json: { status: 'error', message: 'Invalid token', errorCode: 'Unauthorized' },
    }));
    await expect(client(s.url).holidays()).rejects.toBeInstanceOf(SessionError);
    expect(s.requests).toHaveLength(1);
  });

  it('carries errorCode and message of a refusal', async () => {
    const s = await start(() => ({
      status: 400,
      json: { status: 'error', message: 'bad token list', errorCode: 'BadRequestError' },
    }));
    const err = await client(s.url)
      .greeks([1])
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RefusedError);
    expect(err).toMatchObject({
      errorCode: 'BadRequestError',
      serviceMessage: 'bad token list',
      status: 400,
      operation: 'greeks',
    });
    expect(s.requests).toHaveLength(1);
  });

  it('retries reads on 5xx and network drops with growing backoff', async () => {
    const clock = new VirtualClock(0, { auto: true });
    const arrivals: number[] = [];
    const s = await start((_req, i) => {
      arrivals.push(clock.now());
      if (i === 0)
        return {
          status: 503,
          json: { status: 'error', message: 'busy', errorCode: 'InternalServerError' },
        };
      if (i === 1) return 'drop';
      return ok([fx.orderBookRecord]);
    });
    const book = await client(s.url, { clock }).orderBook();
    expect(book).toHaveLength(1);
    expect(s.requests).toHaveLength(3);
    // random() = 0.5 gives 3/4 of the ceiling: 250 ms then 500 ms ceilings.
    expect(arrivals).toEqual([0, 188, 188 + 375]);
  });

  it('honours Retry-After on 429', async () => {
    const clock = new VirtualClock(0, { auto: true });
    const arrivals: number[] = [];
    const s = await start((_req, i) => {
      arrivals.push(clock.now());
      return i === 0
        ? {
            status: 429,
            headers: { 'retry-after': '2' },
            json: { status: 'error', message: 'slow down', errorCode: 'TooManyRequests' },
          }
        : ok([]);
    });
    await client(s.url, { clock }).tradeBook();
    expect(arrivals).toEqual([0, 2_000]);
  });

  it('gives up after the retry limit with the last error', async () => {
    const s = await start(() => ({
      status: 429,
      json: { status: 'error', message: 'slow', errorCode: 'TooManyRequests' },
    }));
    await expect(client(s.url, { retry: { limit: 2 } }).indexList()).rejects.toBeInstanceOf(
      RateLimitedError,
    );
    expect(s.requests).toHaveLength(3);
  });

  it('raises NetworkError when nothing listens', async () => {
    const s = await start(() => ok([]));
    const url = s.url;
    await s.close();
    server = undefined;
    await expect(client(url, { retry: { limit: 0 } }).indexList()).rejects.toBeInstanceOf(
      NetworkError,
    );
  });

  it('times out a hung read', async () => {
    const s = await start(() => 'hang');
    await expect(
      client(s.url, { timeoutMs: 50, retry: { limit: 0 } }).holidays(),
    ).rejects.toBeInstanceOf(TimeoutError);
  });
});

describe('TiqsClient: order operations are never retried blindly', () => {
  it.each<[string, Reply]>([
    [
      'a 5xx answer',
      {
        status: 502,
        json: { status: 'error', message: 'gateway', errorCode: 'InternalServerError' },
      },
    ],
    ['a dropped connection', 'drop'],
    ['an unreadable answer', { text: '{"data": {"orderNo": ' }],
    ['a time-out', 'hang'],
  ])(
    'turns %s on placement into OutcomeUnknownError with the tag, after one request',
    async (_what, reply) => {
      const s = await start(() => reply);
      const err = await client(s.url, { timeoutMs: 50 })
        .placeOrder('regular', fx.placeBody)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutcomeUnknownError);
      expect(err).toMatchObject({ tag: 'tr-test-1', operation: 'placeOrder' });
      expect(s.requests).toHaveLength(1);
    },
  );

  it('reports a refused connection as a plain NetworkError: the order cannot exist', async () => {
    const s = await start(() => ok({}));
    const url = s.url;
    await s.close();
    server = undefined;
    await expect(client(url).placeOrder('regular', fx.placeBody)).rejects.toBeInstanceOf(
      NetworkError,
    );
  });

  it('sends a 26th modification and reports the service’s own refusal (the engine counts)', async () => {
    const s = await start((req, i) =>
      i < 25
        ? fakeService(req)
        : {
            status: 400,
            json: {
              status: 'error',
              message: 'Order has had the maximum of 25 modifications',
              errorCode: 'BadRequestError',
            },
          },
    );
    const c = client(s.url);
    const { symbol: _s, ...body } = fx.placeBody;
    for (let i = 0; i < 25; i++) await c.modifyOrder('regular', '24112000000009', body);
    const err = await c.modifyOrder('regular', '24112000000009', body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RefusedError);
    expect(err).toMatchObject({ operation: 'modifyOrder', status: 400 });
    expect(s.requests).toHaveLength(26);
  });
});

describe('TiqsClient: pacing', () => {
  it('admits at most 10 quote requests per 1.25 s (1 s + the 250 ms jitter margin), queueing the rest', async () => {
    const clock = new VirtualClock(0, { auto: true });
    const sent: number[] = [];
    const s = await start(fakeService);
    const countingFetch: typeof fetch = (input, init) => {
      sent.push(clock.now());
      return fetch(input, init);
    };
    const c = client(s.url, { clock, fetch: countingFetch });
    await Promise.all(Array.from({ length: 25 }, () => c.quotes('ltp', [3045])));
    expect(s.requests).toHaveLength(25);
    // Without the margin the second ten went out at exactly 1 000 ms: arrivals at the
    // service skewed by connection set-up then met 429s (issue 11, item 9).
    expect(sent).toEqual([...Array(10).fill(0), ...Array(10).fill(1_250), ...Array(5).fill(2_500)]);
  });

  it("paces on the pacer it is given, and shares none behind the caller's back", async () => {
    const s = await start(fakeService);
    const clock = new VirtualClock(0);
    const shared = new Pacer(clock);
    const a = client(s.url, { clock, pacer: shared });
    const b = client(s.url, { clock, pacer: shared });
    expect(a.pacer).toBe(shared);
    expect(b.pacer).toBe(shared);
    // No process-global registry: same credentials without a pacer still get their own.
    const c = client(s.url, { clock });
    const d = client(s.url, { clock });
    expect(c.pacer).toBeInstanceOf(Pacer);
    expect(c.pacer).not.toBe(d.pacer);
  });
});

describe('TiqsClient: secrets', () => {
  it('keeps appId and token out of every error, message, cause and serialization', async () => {
    const replies: Reply[] = [
      { status: 401, json: { status: 'error', message: 'expired', errorCode: 'Unauthorized' } },
      { status: 400, json: { status: 'error', message: 'bad', errorCode: 'BadRequestError' } },
      { status: 429, json: { status: 'error', message: 'slow', errorCode: 'TooManyRequests' } },
      { text: 'not json' },
      ok([{ token: 'x' }]),
      'drop',
      'hang',
    ];
    const s = await start((_req, i) => replies[i % replies.length] ?? 'drop');
    const lines: string[] = [];
    const logger = createLogger({
      level: 'trace',
      format: 'json',
      destination: { write: (line: string) => lines.push(line) },
    });
    const c = client(s.url, { timeoutMs: 50, retry: { limit: 1 }, logger });
    const errors: unknown[] = [];
    // Every kind of failure, on reads (retried, so logged) and on placements (sent once:
    // refused, unknown outcome with a nested time-out, network or parse cause).
    for (let i = 0; i < replies.length; i++) {
      errors.push(await c.orderBook().catch((e: unknown) => e));
      errors.push(await c.placeOrder('regular', fx.placeBody).catch((e: unknown) => e));
    }
    expect(errors.some((e) => e instanceof OutcomeUnknownError)).toBe(true);
    for (const err of errors) {
      expect(err).toBeInstanceOf(Error);
      logger.error({ err }, 'request failed');
      for (const text of [
        String(err),
        JSON.stringify(err),
        inspect(err, { depth: 20, showHidden: true }),
      ]) {
        expect(text).not.toContain(APP_ID);
        expect(text).not.toContain(TOKEN);
      }
    }
    const logged = lines.join('');
    expect(logged).toContain('retrying');
    expect(logged).not.toContain(APP_ID);
    expect(logged).not.toContain(TOKEN);
  });
});
