import { afterEach, describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../../src/api/errors/outcome-unknown-error.ts';
import { RateLimitedError } from '../../src/api/errors/rate-limited-error.ts';
import { Pacer } from '../../src/api/pacing/pacer.ts';
import { DEFAULT_RATE_LIMITS } from '../../src/api/pacing/rate-limits.ts';
import { TiqsClient, type TiqsClientOptions } from '../../src/api/tiqs-client.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { createTestServer, type Reply, type TestServer } from '../helpers/create-test-server.ts';
import * as fx from '../helpers/fixtures.ts';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tooMany = (retryAfter?: string): Reply => ({
  status: 429,
  ...(retryAfter === undefined ? {} : { headers: { 'retry-after': retryAfter } }),
  json: { status: 'error', message: 'slow down', errorCode: 'TooManyRequests' },
});
const placed: Reply = {
  json: {
    status: 'success',
    data: { orderNo: '24112000000001', requestTime: '10:15:01 20-11-2026' },
  },
};
const cancelled: Reply = {
  json: { status: 'success', data: { message: 'Cancellation request accepted' } },
};

/**
 * A service answering from `script` (the last entry repeats), recording each arrival on
 * the client's auto-advancing virtual clock: waits cost no real time.
 */
async function scripted(
  script: Reply[],
  extra: Partial<TiqsClientOptions> = {},
  pacerFor: (clock: VirtualClock) => Pacer = (clock) =>
    new Pacer(clock, undefined, { marginMs: 0 }),
) {
  const clock = new VirtualClock(0, { auto: true });
  const arrivals: number[] = [];
  server = await createTestServer((_req, i) => {
    arrivals.push(clock.now());
    return script[Math.min(i, script.length - 1)] ?? tooMany();
  });
  const client = new TiqsClient({
    baseUrl: server.url,
    appId: 'app',
    token: 'tok',
    clock,
    random: () => 0.5,
    pacer: pacerFor(clock),
    ...extra,
  });
  return { client, arrivals, server, clock };
}

describe('TiqsClient: Retry-After is bounded', () => {
  // How I checked: with the cap removed (parseRetryAfter returning seconds × 1000), the
  // second arrival came at 3 600 000 ms, and for 1e12 at 1 ms (the overflowed timer).
  it.each([
    ['3600', 30_000],
    ['1e12', 30_000],
    ['1e400', 30_000],
    ['2', 2_000],
  ])(
    'waits min(Retry-After %s s, retryAfterMaxMs) before retrying a read',
    async (header, wait) => {
      const { client, arrivals } = await scripted([
        tooMany(header),
        { json: { status: 'success', data: [] } },
      ]);
      await client.tradeBook();
      expect(arrivals).toEqual([0, wait]);
    },
  );

  it('honours a configured cap', async () => {
    const { client, arrivals } = await scripted(
      [tooMany('3600'), { json: { status: 'success', data: [] } }],
      {
        retryAfterMaxMs: 5_000,
      },
    );
    await client.tradeBook();
    expect(arrivals).toEqual([0, 5_000]);
  });

  it.each(['-5', 'soon', 'NaN'])(
    'ignores Retry-After %s and backs off on its own',
    async (header) => {
      const { client, arrivals } = await scripted([
        tooMany(header),
        { json: { status: 'success', data: [] } },
      ]);
      await client.tradeBook();
      // random() = 0.5: 3/4 of the 250 ms ceiling.
      expect(arrivals).toEqual([0, 188]);
    },
  );
});

describe('TiqsClient: a throttled order operation is resent, never lost, never doubled', () => {
  // How I checked: with order operations thrown on the first 429 again (the old rule
  // "order operations are sent once"), the placement failed with RateLimitedError after
  // one request and these tests failed.
  it('resends a placement answered 429 under the same tag until it is accepted', async () => {
    const { client, arrivals, server: s } = await scripted([tooMany(), tooMany('1'), placed]);
    const result = await client.placeOrder('regular', fx.placeBody);
    expect(result.orderNo).toBe('24112000000001');
    expect(s.requests).toHaveLength(3);
    const bodies = s.requests.map((r) => r.body);
    expect(new Set(bodies).size).toBe(1);
    expect(JSON.parse(bodies[0] ?? '{}').tags).toBe('tr-test-1');
    // Backoff 188 ms, then the service's 1 s (more than the 375 ms backoff).
    expect(arrivals).toEqual([0, 188, 1_188]);
  });

  it('resends an untagged placement with the tag it made, not a fresh one', async () => {
    const { client, server: s } = await scripted([tooMany(), placed]);
    const { tags: _t, ...untagged } = fx.placeBody;
    await client.placeOrder('regular', untagged);
    const tags = s.requests.map((r) => JSON.parse(r.body).tags as string);
    expect(tags).toHaveLength(2);
    expect(tags[0]).toMatch(/^tr-/);
    expect(tags[1]).toBe(tags[0]);
  });

  it('gives up at the deadline with a RateLimitedError that says the order was not accepted', async () => {
    const {
      client,
      arrivals,
      server: s,
    } = await scripted([tooMany()], {
      throttleRetryDeadlineMs: 20_000,
    });
    const err = await client.placeOrder('regular', fx.placeBody).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect(err).not.toBeInstanceOf(OutcomeUnknownError);
    expect((err as Error).message).toMatch(
      /^placeOrder: not accepted for tag tr-test-1: the service answered HTTP 429 to \d+ attempts over \d+ ms; gave up at the 20000 ms deadline$/,
    );
    expect((err as Error).cause).toBeInstanceOf(RateLimitedError);
    // Backoff doubles to its 8 s cap; the wait that would pass the deadline is cut to a
    // last try at it, and none comes after.
    expect(arrivals).toEqual([0, 188, 563, 1_313, 2_813, 5_813, 11_813, 17_813, 20_000]);
    expect(s.requests).toHaveLength(9);
  });

  it("counts the deadline from the first 429, not from a wait in the pacer's queue", async () => {
    // One placement per 30 s: the second waits 30 s for its slot, is throttled, and is
    // still resent (checked: timed from the call's start, it was given up at once).
    const { client, arrivals } = await scripted(
      [placed, tooMany(), placed],
      {},
      (clock) =>
        new Pacer(
          clock,
          { ...DEFAULT_RATE_LIMITS, order: [{ limit: 1, intervalMs: 30_000 }] },
          { marginMs: 0 },
        ),
    );
    const first = client.placeOrder('regular', { ...fx.placeBody, tags: 'a' });
    const second = client.placeOrder('regular', { ...fx.placeBody, tags: 'b' });
    await expect(Promise.all([first, second])).resolves.toHaveLength(2);
    // (The first arrival may read 30 000: the auto clock jumps to the pacer's next timer
    // while that request is in flight.)
    expect(arrivals).toHaveLength(3);
    expect(arrivals.slice(1)).toEqual([30_000, 60_000]);
  });

  it('cuts a Retry-After beyond the deadline to a last try at the deadline', async () => {
    const { client, arrivals } = await scripted([tooMany('3600'), placed], {
      throttleRetryDeadlineMs: 20_000,
    });
    await expect(client.placeOrder('regular', fx.placeBody)).resolves.toMatchObject({
      orderNo: '24112000000001',
    });
    expect(arrivals).toEqual([0, 20_000]);
  });

  it('resends a cancel answered 429 (cancelling twice is harmless)', async () => {
    const { client, server: s } = await scripted([tooMany(), tooMany(), cancelled]);
    const result = await client.cancelOrder('regular', '24112000000001');
    expect(result.message).toMatch(/accepted/);
    expect(s.requests.map((r) => `${r.method} ${r.url}`)).toEqual(
      Array(3).fill('DELETE /order/regular/24112000000001'),
    );
  });

  it('resends a modify answered 429', async () => {
    const { client, server: s } = await scripted([
      tooMany(),
      { json: { status: 'success', data: { message: 'Order modified' } } },
    ]);
    const { symbol: _s, ...body } = fx.placeBody;
    await client.modifyOrder('regular', '24112000000001', body);
    expect(s.requests).toHaveLength(2);
  });

  it('still never resends a placement whose outcome is unknown (a 5xx)', async () => {
    const { client, server: s } = await scripted([
      { status: 503, json: { status: 'error', message: 'busy', errorCode: 'InternalServerError' } },
      placed,
    ]);
    await expect(client.placeOrder('regular', fx.placeBody)).rejects.toBeInstanceOf(
      OutcomeUnknownError,
    );
    expect(s.requests).toHaveLength(1);
  });

  it('takes a fresh pacer slot for every resend', async () => {
    // One placement a second, and a service asking to retry at once: each resend waits
    // for its own slot, not just the (1 ms) backoff.
    const { client, arrivals } = await scripted(
      [tooMany('0'), tooMany('0'), placed],
      { random: () => 0, retry: { baseDelayMs: 1, maxDelayMs: 1 } },
      (clock) =>
        new Pacer(
          clock,
          { ...DEFAULT_RATE_LIMITS, order: [{ limit: 1, intervalMs: 1_000 }] },
          {
            marginMs: 0,
          },
        ),
    );
    await client.placeOrder('regular', fx.placeBody);
    expect(arrivals).toEqual([0, 1_000, 2_000]);
  });
});
