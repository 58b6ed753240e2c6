import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A request as a {@link RawTestServer} saw it, with its arrival time (wall clock). */
export interface RawRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  arrivedAt: number;
}

/** A loopback server whose handler writes the raw response: stalls, trickles, redirects. */
export interface RawTestServer {
  url: string;
  requests: RawRequest[];
  close(): Promise<void>;
}

/**
 * Starts a throwaway HTTP server on 127.0.0.1 whose `handler` gets the raw response,
 * for answers the scripted test server cannot give (a body that stalls or trickles).
 * `close` destroys every connection, so a stalled answer never outlives its test.
 */
export async function startRawServer(
  handler: (req: RawRequest, res: ServerResponse, index: number) => void,
): Promise<RawTestServer> {
  const requests: RawRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen: RawRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        arrivedAt: Date.now(),
      };
      requests.push(seen);
      handler(seen, res, requests.length - 1);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Waits on real I/O until `done()` holds; throws after `ms` (bounded, never a sleep). The
 * default is generous: a loopback answer on a starved 2-core CI machine can take seconds,
 * and a wait that never ends fails all the same, only later.
 */
export async function until(done: () => boolean, ms = 10_000): Promise<void> {
  const give = Date.now() + ms;
  while (!done()) {
    if (Date.now() > give) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
