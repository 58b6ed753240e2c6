import { z } from 'zod';

/**
 * `metrics`: Prometheus metrics on a port of their own, for a bot without the dashboard
 * (with the dashboard on, `/metrics` is served there too, behind its token). Loopback by
 * default; with a `token`, every scrape needs `Authorization: Bearer <token>`.
 */
export const metricsConfigSchema = z.strictObject({
  /** 0: any free port (logged at start). */
  port: z.number().int().min(0).max(65_535),
  host: z.string().min(1).default('127.0.0.1'),
  token: z.string().min(1, 'expected a non-empty token (use ${METRICS_TOKEN})').optional(),
});

/** The `metrics` section, defaults filled in. */
export type MetricsConfig = z.infer<typeof metricsConfigSchema>;
