import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One POST the receiver took, with whether its signature held for the receiver's secret. */
interface ReceivedHook {
  body: string;
  json: Record<string, unknown>;
  signature: string | undefined;
  /** The signature matched an HMAC-SHA256 of the exact body under the receiver's secret. */
  verified: boolean;
}

/** A webhook receiver on loopback, as a trader's own would check the signature. */
export interface WebhookReceiver {
  url: string;
  received: ReceivedHook[];
  /** Resolves once `n` hooks have arrived, or rejects after `timeoutMs` (real I/O, bounded). */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedHook[]>;
  /** Answers the next `n` POSTs with `status` before taking them. */
  failNext(n: number, status: number): void;
  close(): Promise<void>;
}

/**
 * Starts a receiver on 127.0.0.1 that checks `X-Tiqs-Runner-Signature` against `secret`
 * (tests pass the wrong one to see the check fail).
 */
export async function startWebhookReceiver(secret: string | undefined): Promise<WebhookReceiver> {
  const received: ReceivedHook[] = [];
  const waiters = new Set<() => void>();
  let failing = 0;
  let failStatus = 500;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (failing > 0) {
        failing -= 1;
        res.writeHead(failStatus).end();
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = req.headers['x-tiqs-runner-signature'] as string | undefined;
      const expected =
        secret === undefined
          ? undefined
          : `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
      const verified =
        expected !== undefined &&
        signature !== undefined &&
        signature.length === expected.length &&
        timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
      received.push({
        body,
        json: JSON.parse(body) as Record<string, unknown>,
        signature,
        verified,
      });
      res.writeHead(204).end();
      for (const w of waiters) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/alerts`,
    received,
    failNext: (n, status) => {
      failing = n;
      failStatus = status;
    },
    waitFor: (n, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < n) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(received.slice());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${n} webhook calls, got ${received.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
