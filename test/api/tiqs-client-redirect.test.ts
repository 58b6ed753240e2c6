import { afterEach, describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../../src/api/errors/outcome-unknown-error.ts';
import { RefusedError } from '../../src/api/errors/refused-error.ts';
import { Pacer } from '../../src/api/pacing/pacer.ts';
import { TiqsClient } from '../../src/api/tiqs-client.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import * as fx from '../helpers/fixtures.ts';
import { type RawTestServer, startRawServer } from './raw-test-server.ts';

const APP_ID = 'app-secret-id-7f3a';
const TOKEN = 'eyJ.secret-token-value-91c2';

let servers: RawTestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** The configured service, redirecting everything with `status` to `elsewhere`. */
async function redirecting(
  status: number,
): Promise<{ service: RawTestServer; elsewhere: RawTestServer }> {
  const elsewhere = await startRawServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        status: 'success',
        data: { orderNo: '99999999999999', requestTime: '10:15:01 20-11-2026' },
      }),
    );
  });
  const service = await startRawServer((req, res) => {
    // A Location carrying a credential of its own, which must not reach any message.
    // (No user:pass@ in it: fetch refuses to follow those anyway, which would hide a leak.)
    const target = new URL(req.url ?? '/', elsewhere.url);
    target.searchParams.set('sig', 'location-secret');
    res.writeHead(status, { location: target.href });
    res.end();
  });
  servers.push(elsewhere, service);
  return { service, elsewhere };
}

function client(url: string): TiqsClient {
  const clock = new VirtualClock(0, { auto: true });
  return new TiqsClient({
    baseUrl: url,
    appId: APP_ID,
    token: TOKEN,
    clock,
    pacer: new Pacer(clock),
  });
}

// How I checked these can fail: without `redirect: 'manual'` fetch followed the 302 and
// the 307 (the other origin received the appId and token headers and the placement's
// body, and the placement resolved with that host's orderNo 99999999999999).
describe('TiqsClient: redirects are never followed', () => {
  it.each([301, 302, 303, 307, 308])(
    'refuses a read answered %i; the other origin sees no request and no credential',
    async (status) => {
      const { service, elsewhere } = await redirecting(status);
      const err = await client(service.url)
        .orderBook()
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RefusedError);
      expect(err).toMatchObject({ status, errorCode: 'Redirect', operation: 'orderBook' });
      const message = (err as Error).message;
      expect(message).toContain(`redirect to ${elsewhere.url}`);
      for (const secret of ['location-secret', APP_ID, TOKEN]) {
        expect(message).not.toContain(secret);
        expect(JSON.stringify(err)).not.toContain(secret);
      }
      expect(elsewhere.requests).toHaveLength(0);
      // Not retried either: a redirect will not go away by asking again.
      expect(service.requests).toHaveLength(1);
    },
  );

  it.each([302, 307, 308])(
    "makes a placement answered %i an unknown outcome by tag, never taking the other host's orderNo",
    async (status) => {
      const { service, elsewhere } = await redirecting(status);
      const err = await client(service.url)
        .placeOrder('regular', fx.placeBody)
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutcomeUnknownError);
      expect(err).toMatchObject({ tag: 'tr-test-1', operation: 'placeOrder', status });
      expect((err as Error).cause).toBeInstanceOf(RefusedError);
      expect(elsewhere.requests).toHaveLength(0);
      expect(service.requests).toHaveLength(1);
    },
  );

  it('makes a redirected cancel an unknown outcome for its order id', async () => {
    const { service, elsewhere } = await redirecting(307);
    const err = await client(service.url)
      .cancelOrder('regular', '24112000000001')
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(err).toMatchObject({ orderId: '24112000000001' });
    expect(elsewhere.requests).toHaveLength(0);
  });
});
