import type { Hono } from 'hono';
import type { Logger } from 'pino';
import type { RunnerConfig } from '../../config/config-schema.ts';
import type { BotControls } from '../../runtime/bot-controls.ts';
import type { RunningDashboard } from './dashboard-server.ts';

/** Options of {@link serveDashboard}. */
export interface ServeDashboardOptions {
  controls: BotControls;
  config: RunnerConfig;
  logger: Logger;
  /** More routes behind the dashboard's token (e.g. `GET /metrics`). */
  extraRoutes?: (app: Hono) => void;
  /** Where the URL goes, once (default: the process's stderr; never a log line). */
  print?: (line: string) => void;
}

/**
 * Serves the `dashboard` block of a config for `run`, or nothing when there is none or it
 * is disabled. The URL is printed once on stderr, with the token only when it was made at
 * start (a configured token is already known to whoever configured it). A port that cannot
 * be bound is logged as an error and the bot runs on without a dashboard. The server's
 * modules (hono) are imported only when the dashboard is on.
 */
export async function serveDashboard(
  options: ServeDashboardOptions,
): Promise<RunningDashboard | undefined> {
  const block = options.config.dashboard;
  if (block === undefined || !block.enabled) return undefined;
  const print = options.print ?? ((line: string) => process.stderr.write(`${line}\n`));
  // Outside the try: a server module that cannot load is a broken install, not a busy port.
  const { startDashboard } = await import('./dashboard-server.ts');
  try {
    const running = await startDashboard({
      controls: options.controls,
      config: block,
      logger: options.logger,
      ...(options.extraRoutes === undefined ? {} : { extraRoutes: options.extraRoutes }),
    });
    print(
      running.generated
        ? `dashboard: ${running.url}/?token=${running.token}  (token made for this run; set dashboard.token to keep one)`
        : `dashboard: ${running.url}/?token=<dashboard.token>`,
    );
    return running;
  } catch (err) {
    options.logger.error(
      { component: 'dashboard', err },
      'the dashboard could not start; the bot runs on without it',
    );
    return undefined;
  }
}
