import { randomBytes } from 'node:crypto';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import { listenOpsServer } from '../listen-ops-server.ts';
import { dashboardApp } from './dashboard-app.ts';
import { type DashboardControls, DashboardFeed } from './dashboard-feed.ts';

/** The `dashboard` block of a config. */
interface DashboardConfig {
  port: number;
  host: string;
  /** Empty: a random token is made for this run. */
  token: string;
}

/** Options of {@link startDashboard}. */
export interface StartDashboardOptions {
  controls: DashboardControls;
  config: DashboardConfig;
  logger: Logger;
  /** More routes behind the same token, e.g. `(app) => app.get('/metrics', …)`. */
  extraRoutes?: (app: Hono) => void;
}

/** A dashboard being served. */
export interface RunningDashboard {
  /** `http://host:port` (no token). */
  readonly url: string;
  /** The token of this run: the configured one, or the one made at start. */
  readonly token: string;
  /** Whether the token was made at start (so nobody knows it until it is printed). */
  readonly generated: boolean;
  readonly app: Hono;
  /** Ends every push stream and closes the server and its connections. */
  close(): Promise<void>;
}

/**
 * Serves the dashboard (see `dashboardApp`) on `config.host:port`, loopback unless the
 * config says otherwise. Resolves once listening; rejects when the port cannot be bound.
 * The token is never logged: the caller prints the URL with a made token once, on stderr.
 */
export async function startDashboard(options: StartDashboardOptions): Promise<RunningDashboard> {
  const { config, controls } = options;
  const generated = config.token === '';
  const token = generated ? randomBytes(24).toString('base64url') : config.token;
  const feed = new DashboardFeed(controls);
  const app = dashboardApp({
    controls,
    feed,
    token,
    ...(options.extraRoutes === undefined ? {} : { extraRoutes: options.extraRoutes }),
  });
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host });
  let url: string;
  try {
    url = await listenOpsServer(server, 'dashboard', config.host, config.port);
  } catch (err) {
    feed.close();
    throw err;
  }
  options.logger.child({ component: 'dashboard' }).info({ url }, 'dashboard listening');
  let closing: Promise<void> | undefined;
  return {
    url,
    token,
    generated,
    app,
    close() {
      closing ??= new Promise<void>((closed) => {
        feed.close();
        server.close(() => closed());
        // Push streams never end on their own: cut every connection now.
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      return closing;
    },
  };
}
