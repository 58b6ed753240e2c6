import type { Logger } from 'pino';
import type { RunnerConfig } from '../../config/config-schema.ts';
import type { Notifier } from '../notify/notifier.ts';
import type { BotMetrics } from './bot-metrics.ts';
import type { RunningMetricsServer } from './metrics-server.ts';

/**
 * The metrics of a `run` bot: made when something serves them (the dashboard's
 * `/metrics` or `metrics.port`); undefined otherwise, so that nothing is timed and
 * prom-client is not even loaded (its module is imported only here, on demand).
 */
export async function metricsFor(config: RunnerConfig): Promise<BotMetrics | undefined> {
  const onDashboard = config.dashboard?.enabled === true;
  if (!onDashboard && config.metrics === undefined) return undefined;
  const { BotMetrics } = await import('./bot-metrics.ts');
  return new BotMetrics();
}

/**
 * Serves `metrics` on `metrics.port` when the config sets one. A port that cannot be
 * bound is logged and the bot runs on without it: metrics never stop trading.
 */
export async function serveMetrics(
  metrics: BotMetrics | undefined,
  config: RunnerConfig,
  logger: Logger,
): Promise<RunningMetricsServer | undefined> {
  if (metrics === undefined || config.metrics === undefined) return undefined;
  // Outside the try: a server module that cannot load is a broken install, not a busy port.
  const { startMetricsServer } = await import('./metrics-server.ts');
  try {
    return await startMetricsServer(metrics, config.metrics, logger);
  } catch (err) {
    logger.error({ err, component: 'metrics' }, 'metrics not served: the bot runs on without them');
    return undefined;
  }
}

/** Counts the alerts `notifier`'s channels drop, read at each scrape. */
export function countDroppedAlerts(metrics: BotMetrics | undefined, notifier: Notifier): void {
  metrics?.countDroppedAlerts(() => {
    const out: Record<string, number> = {};
    for (const [channel, stats] of Object.entries(notifier.stats().channels))
      out[channel] = stats?.dropped ?? 0;
    return out;
  });
}
