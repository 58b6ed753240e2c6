import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the test server saw it. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What a scripted handler answers: a status and a JSON-able body, or a raw action. */
export type Reply =
  | { status?: number; json?: unknown; text?: string; headers?: Record<string, string> }
  | 'drop'
  | 'hang';

/** A throwaway HTTP server on 127.0.0.1 and a free port, for one test. */
export interface TestServer {
  url: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/**
 * Starts a loopback server whose answers come from `handler` (after ky's
 * `test/helpers/create-http-test-server.ts`).
 */
export async function createTestServer(
  handler: (req: SeenRequest, index: number) => Reply | Promise<Reply>,
): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const seen: SeenRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      const reply = await handler(seen, requests.length - 1);
      if (reply === 'drop') {
        req.socket.destroy();
        return;
      }
      if (reply === 'hang') {
        hanging.add(res);
        return;
      }
      const body = reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json));
      res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.socket?.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
