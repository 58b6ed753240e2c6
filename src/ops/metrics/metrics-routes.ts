import type { Hono } from 'hono';
import type { BotMetrics } from './bot-metrics.ts';

/**
 * Adds `GET /metrics` (Prometheus text format) to `app`: the dashboard's `extraRoutes`,
 * behind its token, or the app of `startMetricsServer`. A module of its own, without
 * hono's runtime code, so that `run` can name it without loading a server.
 *
 * @example
 * ```ts
 * await startDashboard({ controls, config, logger, extraRoutes: metricsRoutes(metrics) });
 * ```
 */
export function metricsRoutes(metrics: BotMetrics): (app: Hono) => void {
  return (app) => {
    app.get('/metrics', async (c) => {
      const body = await metrics.text();
      return c.body(body, 200, { 'Content-Type': metrics.contentType });
    });
  };
}
