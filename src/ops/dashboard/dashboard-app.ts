import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { PRODUCTS } from '../../domain/order-params.ts';
import { dashboardAuth } from './dashboard-auth.ts';
import type { DashboardControls, DashboardFeed } from './dashboard-feed.ts';
import { dashboardPage } from './dashboard-page.ts';
import { LatestWriter } from './latest-writer.ts';

/** What {@link dashboardApp} serves. */
export interface DashboardAppOptions {
  controls: DashboardControls;
  feed: DashboardFeed;
  /** The token every request must show. */
  token: string;
  /**
   * More routes on the same app, behind the same token (e.g. `GET /metrics`): called
   * after the dashboard's own routes are in place.
   */
  extraRoutes?: (app: Hono) => void;
  /** An SSE write unfinished this long (wall ms) cuts the client; default 30 s. */
  stallMs?: number;
}

const squareOffBody = z.object({ product: z.enum(PRODUCTS).optional() }).default({});

/** The body as JSON; undefined when empty, and `null` (which no schema takes) when malformed. */
function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Who asked, for the journal and the log: the dashboard and the caller's address. */
function who(c: Context): string {
  try {
    const address = getConnInfo(c).remote.address;
    return address === undefined ? 'dashboard' : `dashboard (${address})`;
  } catch {
    // `app.request` in tests has no socket.
    return 'dashboard';
  }
}

/**
 * The dashboard's routes, all behind the token (see `dashboardAuth`):
 *
 * - `GET /` the page; `GET /api/status` one snapshot; `GET /api/events` a snapshot, then
 *   updates (the PnL curve's end only), pushed as server-sent events (`event: status`); `GET /api/broker-positions` the broker's nets;
 * - `POST /api/strategies/:id/pause|resume`, `POST /api/positions/:token/square-off`
 *   (`{ product? }`), `POST /api/square-off-all`, `POST /api/kill-switch`: each answers
 *   the control's record (outcome `done`, `unchanged` or `refused`; 404 when refused).
 */
export function dashboardApp(options: DashboardAppOptions): Hono {
  const { controls, feed } = options;
  const app = new Hono();
  app.use('*', dashboardAuth(options.token));
  app.get('/', (c) => c.html(dashboardPage()));
  app.get('/api/status', (c) => c.json(feed.snapshot()));
  app.get('/api/broker-positions', async (c) => c.json(await controls.brokerPositions()));
  app.get('/api/events', (c) =>
    streamSSE(c, async (stream) => {
      let id = 0;
      // One waiting snapshot per client at most; a client stalled past the bound is cut.
      const writer = new LatestWriter(
        {
          write: (data) => stream.writeSSE({ event: 'status', data, id: String(id++) }),
          abort: () => stream.abort(),
        },
        options.stallMs,
      );
      await new Promise<void>((ended) => {
        const sub = feed.json$.subscribe({
          next: (data) => writer.offer(data),
          complete: () => ended(),
        });
        stream.onAbort(() => {
          sub.unsubscribe();
          writer.close();
          ended();
        });
      });
      await writer.idle();
    }),
  );
  const answer = (c: Context, r: { outcome: string }) =>
    c.json(r, r.outcome === 'refused' ? 404 : 200);
  app.post('/api/strategies/:id/pause', (c) =>
    answer(c, controls.pauseStrategy(c.req.param('id'), who(c))),
  );
  app.post('/api/strategies/:id/resume', (c) =>
    answer(c, controls.resumeStrategy(c.req.param('id'), who(c))),
  );
  app.post('/api/positions/:token/square-off', async (c) => {
    const token = Number(c.req.param('token'));
    if (!Number.isInteger(token) || token <= 0) return c.json({ error: 'bad token' }, 400);
    const body = squareOffBody.safeParse(parseJson(await c.req.text()));
    if (!body.success) return c.json({ error: 'expected { product?: "I" | "C" | "M" }' }, 400);
    return answer(c, await controls.squareOff(token, who(c), body.data.product));
  });
  app.post('/api/square-off-all', async (c) => answer(c, await controls.squareOffAll(who(c))));
  app.post('/api/kill-switch', (c) => answer(c, controls.tripKillSwitch(who(c))));
  options.extraRoutes?.(app);
  return app;
}
