import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { bearerAuth } from 'hono/bearer-auth';
import type { Logger } from 'pino';
import type { MetricsConfig } from '../../config/metrics-config-schema.ts';
import { listenOpsServer } from '../listen-ops-server.ts';
import { isLoopbackAddress } from '../loopback-address.ts';
import type { BotMetrics } from './bot-metrics.ts';
import { metricsRoutes } from './metrics-routes.ts';

/** Metrics being served on a port of their own. */
export interface RunningMetricsServer {
  /** `http://host:port` (the scrape path is `/metrics`). */
  readonly url: string;
  close(): Promise<void>;
}

/**
 * Serves `GET /metrics` on `config.host:port` (loopback by default), for a bot without
 * the dashboard; with `config.token`, a scrape without `Authorization: Bearer <token>` is
 * answered 401. Served beyond loopback without a token, it warns once at start: anyone on
 * the network could read positions and PnL. Resolves once listening; rejects when the
 * port cannot be bound.
 */
export async function startMetricsServer(
  metrics: BotMetrics,
  config: MetricsConfig,
  logger: Logger,
): Promise<RunningMetricsServer> {
  const app = new Hono();
  // bearerAuth compares in constant time; the token never reaches a log line.
  if (config.token !== undefined) app.use('*', bearerAuth({ token: config.token }));
  metricsRoutes(metrics)(app);
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host });
  const url = await listenOpsServer(server, 'metrics', config.host, config.port);
  const log = logger.child({ component: 'metrics' });
  const token = config.token !== undefined;
  log.info({ url: `${url}/metrics`, token }, 'metrics listening');
  // The address bound, not the name configured: a host name may resolve off loopback.
  const { address } = server.address() as AddressInfo;
  if (!token && !isLoopbackAddress(address))
    log.warn(
      { url: `${url}/metrics`, address, token },
      `metrics served on ${url.slice('http://'.length)} without metrics.token: anyone who can reach the port can read them (positions, PnL); set metrics.token or bind metrics.host to 127.0.0.1`,
    );
  return {
    url,
    close: () =>
      new Promise<void>((closed) => {
        server.close(() => closed());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
