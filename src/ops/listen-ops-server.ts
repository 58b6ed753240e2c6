import type { AddressInfo } from 'node:net';
import type { ServerType } from '@hono/node-server';
import { type OpsServer, OpsServerError } from './ops-server-error.ts';

/**
 * Waits until an ops server (started by `serve`) listens and returns its URL
 * (`http://host:port`, an IPv6 host bracketed, the port as bound, so `port: 0` gives the
 * one chosen). A failure to listen becomes an {@link OpsServerError} with its cause.
 *
 * @example
 * ```ts
 * const url = await listenOpsServer(serve({ fetch, port, hostname }), 'metrics', hostname, port);
 * ```
 */
export async function listenOpsServer(
  server: ServerType,
  name: OpsServer,
  host: string,
  port: number,
): Promise<string> {
  try {
    await new Promise<void>((listening, failed) => {
      server.once('listening', listening);
      server.once('error', failed);
    });
  } catch (err) {
    throw new OpsServerError(name, 'listen', `${name}: cannot listen on ${host}:${port}`, {
      cause: err,
    });
  }
  const bound = (server.address() as AddressInfo).port;
  return `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
}
