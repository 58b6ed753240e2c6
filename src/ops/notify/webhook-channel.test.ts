import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { Alert } from './alert.ts';
import { secretScrubber } from './secret-scrubber.ts';
import { startWebhookReceiver, type WebhookReceiver } from './testing/webhook-receiver.ts';
import { signBody, WebhookChannel } from './webhook-channel.ts';

const SECRET = 'hook-secret-0123456789';
const queue = {
  queueSize: 10,
  maxRetries: 2,
  retryBaseMs: 1_000,
  retryMaxMs: 4_000,
  timeoutMs: 2_000,
};
const at = Date.parse('2026-11-20T04:01:02Z');
const fill: Alert = {
  kind: 'fill',
  at,
  text: `sma  BUY 10 SBIN-EQ @ ₹794.15 filled (order 9000000035) token ${SECRET}`,
};

let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

function channel(url: string, secret: string | undefined, waits: number[] = []) {
  return new WebhookChannel({ url, secret }, queue, {
    logger: pino({ level: 'silent' }),
    scrub: secretScrubber([SECRET]),
    mode: 'paper',
    wait: async (ms) => void waits.push(ms),
  });
}

describe('WebhookChannel', () => {
  it('POSTs the alert as JSON signed with HMAC-SHA256 of the exact body, with no secret in it', async () => {
    receiver = await startWebhookReceiver(SECRET);
    const hook = channel(receiver.url, SECRET);
    hook.deliver(fill);
    const [got] = await receiver.waitFor(1);
    expect(got?.verified).toBe(true);
    expect(got?.signature).toBe(signBody(got?.body ?? '', SECRET));
    expect(got?.json).toMatchObject({
      kind: 'fill',
      mode: 'paper',
      marketTime: '2026-11-20T09:31:02.000+05:30',
      text: '09:31:02 IST  sma  BUY 10 SBIN-EQ @ ₹794.15 filled (order 9000000035) token ***',
    });
    expect(got?.body).not.toContain(SECRET);
    await hook.stop(AbortSignal.timeout(2_000));
    expect(hook.stats()).toMatchObject({ sent: 1, dropped: 0, failed: 0 });
  });

  it("fails the receiver's check when signed with another secret, and sends no header without one", async () => {
    receiver = await startWebhookReceiver(SECRET);
    const wrong = channel(receiver.url, 'not-the-receivers-secret');
    wrong.deliver(fill);
    const unsigned = channel(receiver.url, undefined);
    unsigned.deliver(fill);
    const got = await receiver.waitFor(2);
    expect(got.map((g) => g.verified)).toEqual([false, false]);
    expect(got.map((g) => g.signature === undefined).sort()).toEqual([false, true]);
    await Promise.all([wrong, unsigned].map((c) => c.stop(AbortSignal.timeout(2_000))));
  });

  it('retries a 5xx with backoff and gives up on a 4xx', async () => {
    receiver = await startWebhookReceiver(SECRET);
    const waits: number[] = [];
    const hook = channel(receiver.url, SECRET, waits);
    receiver.failNext(2, 503);
    hook.deliver(fill);
    await receiver.waitFor(1);
    await hook.stop(AbortSignal.timeout(2_000));
    expect(waits).toEqual([1_000, 2_000]);
    expect(hook.stats()).toMatchObject({ sent: 1, retries: 2, failed: 0 });

    const refused = channel(receiver.url, SECRET, waits);
    receiver.failNext(1, 404);
    refused.deliver(fill);
    await refused.stop(AbortSignal.timeout(2_000));
    expect(refused.stats()).toMatchObject({ sent: 0, failed: 1, retries: 0 });
  });
});
