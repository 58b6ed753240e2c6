import { constants } from 'node:os';
import { Command } from 'commander';
import { createLogger } from '../../logging/create-logger.ts';
import type { LogContext } from '../../logging/log-context.ts';
import { serveDashboard } from '../../ops/dashboard/serve-dashboard.ts';
import { metricsRoutes } from '../../ops/metrics/metrics-routes.ts';
import { countDroppedAlerts, metricsFor, serveMetrics } from '../../ops/metrics/start-metrics.ts';
import { alertStopBudgetMs } from '../../ops/notify/alert-stop-budget.ts';
import { configSecrets, secretScrubber } from '../../ops/notify/secret-scrubber.ts';
import { startAlerts } from '../../ops/notify/start-alerts.ts';
import { BotControls } from '../../runtime/bot-controls.ts';
import { CredentialReload } from '../../runtime/credential-reload.ts';
import { Kernel } from '../../runtime/kernel.ts';
import { StrategyLoadError } from '../../strategy/load-strategy.ts';
import { EXIT } from '../exit-codes.ts';
import { loadConfigOrReport } from '../load-config-or-report.ts';

/** Share of `execution.shutdownTimeoutMs` kept back from the graceful work for closing. */
const CLOSING_RESERVE = 0.2;
/** The most kept back for closing, ms. */
const CLOSING_RESERVE_MAX_MS = 2_000;

/**
 * `tiqs-runner run --config F`: runs a bot until SIGINT or SIGTERM, then stops
 * gracefully under `execution.onShutdown` and exits 0, always within
 * `execution.shutdownTimeoutMs` whatever the service does: the graceful work gets the
 * budget less a closing reserve, then the process logs what it could not finish and
 * exits. A second signal exits at once (128 + the signal's number). SIGHUP or a change of
 * `broker.tokenFile` hands over a new day's token and resumes a paused bot without a
 * restart (see `CredentialReload`).
 */
export function runCommand(): Command {
  return new Command('run')
    .description('Run a bot from a YAML config until Ctrl-C')
    .requiredOption('-c, --config <file>', 'YAML config file')
    .action(async (opts: { config: string }) => {
      const config = await loadConfigOrReport(opts.config);
      if (config === undefined) return;
      // Bound to the kernel once it exists: lines then carry market time and symbols.
      const logContext: LogContext = {};
      // Rebuilt when credentials are reloaded (below), so a new token is scrubbed too.
      let scrubSecrets = secretScrubber(configSecrets(config));
      const logger = createLogger({
        level: config.logging.level,
        format: config.logging.format,
        context: logContext,
        // A secret a strategy put in its own error text is not logged either.
        scrub: (text) => scrubSecrets(text),
      });
      let kernel: Kernel;
      // Prometheus metrics (docs/operations.md "Metrics"): timings need the observer from the start.
      // The ops modules (prom-client, hono, grammy) load only when their section is on.
      const metrics = await metricsFor(config);
      try {
        kernel = await Kernel.create({
          config,
          configFile: opts.config,
          logger,
          ...(metrics === undefined ? {} : { observer: metrics.observer }),
        });
      } catch (err) {
        if (err instanceof StrategyLoadError) {
          process.stderr.write(`${err.message}\n`);
          process.exitCode = EXIT.config;
          return;
        }
        throw err;
      }
      // The market's time (the simulator's, when it runs faster than the wall) and symbols.
      logContext.now = () => kernel.clock.now();
      logContext.symbolOf = (token) => kernel.instruments.byToken(token)?.symbol;
      // The operators' controls (dashboard, Telegram), made before start to see every order.
      const controls = BotControls.of(kernel, logger);
      // The live dashboard (docs/operations.md "Dashboard"), when configured.
      metrics?.attach(kernel);
      // `GET /metrics` behind the dashboard's token too, when it is on.
      const dashboard = await serveDashboard({
        controls,
        config,
        logger,
        ...(metrics === undefined ? {} : { extraRoutes: metricsRoutes(metrics) }),
      });
      const metricsServer = await serveMetrics(metrics, config, logger);
      // Alerts (notify.webhook, notify.telegram), when configured: they only queue.
      // The log lines' scrubber, rebuilt on a credential reload: alerts follow it too.
      const notifier = await startAlerts(kernel, config, logger, controls, (text) =>
        scrubSecrets(text),
      );
      if (notifier !== undefined) countDroppedAlerts(metrics, notifier);
      const budgetMs = config.execution.shutdownTimeoutMs;
      let stopping = false;
      let finished = false;
      let exitCode: number = EXIT.ok;
      const stopped = new Promise<void>((resolve) => {
        const stop = (signal: NodeJS.Signals) => {
          if (stopping) {
            logger.warn({ event: 'forced-exit', signal }, 'second signal: exiting at once');
            process.exit(128 + (constants.signals[signal] ?? 0));
          }
          stopping = true;
          // From here a control would be a no-op the engine drops: refuse it honestly.
          controls.beginStop();
          // Telegram stops taking commands now, not after the journal closed (review 16b M2).
          notifier?.beginStop();
          const began = Date.now();
          const budget = new AbortController();
          const reserve = Math.min(CLOSING_RESERVE_MAX_MS, budgetMs * CLOSING_RESERVE);
          const graceful = setTimeout(() => budget.abort(), budgetMs - reserve);
          // The hard bound: whatever still hangs (a stalled answer, a socket) is left.
          // Unref'd, so a clean stop exits as soon as nothing is left to run.
          setTimeout(() => {
            if (!finished)
              logger.error(
                { event: 'stop-timeout', budgetMs },
                'the stop did not finish within execution.shutdownTimeoutMs: exiting; check open orders and positions with the broker',
              );
            process.exit(EXIT.incomplete);
          }, budgetMs).unref();
          const done = (clean: boolean) => {
            finished = true;
            clearTimeout(graceful);
            // A supervisor can tell a clean stop from one that left work undone.
            exitCode = clean ? EXIT.ok : EXIT.incomplete;
            // What the stop left behind (a stalled request's socket) must not hold the
            // process: exit shortly unless it ends on its own first.
            setTimeout(() => process.exit(exitCode), 100).unref();
            resolve();
          };
          void kernel
            .stop(`received ${signal}`, budget.signal)
            .then(async (report) => {
              notifier?.stopped(kernel.clock.now(), `received ${signal}`, report);
              // What is queued gets what is left of the budget, then is dropped (counted).
              const left = alertStopBudgetMs(budgetMs, Date.now() - began);
              await notifier?.stop(AbortSignal.timeout(left));
              return report;
            })
            .then(
              (report) => done(report.unfinished.length === 0),
              (err: unknown) => {
                logger.error({ err }, 'error while stopping');
                done(false);
              },
            );
        };
        process.on('SIGINT', stop);
        process.on('SIGTERM', stop);
      });
      const reload = CredentialReload.start({
        configFile: opts.config,
        config,
        logger,
        setCredentials: (credentials) => {
          scrubSecrets = secretScrubber([
            ...configSecrets(config),
            credentials.appId,
            credentials.token,
          ]);
          kernel.setCredentials(credentials);
        },
      });
      // A stop may come while starting (e.g. the service does not answer at all).
      await Promise.race([
        kernel.start().then(() => {
          if (!stopping) notifier?.started(kernel);
        }),
        stopped,
      ]);
      await stopped;
      reload.close();
      controls.close();
      await dashboard?.close();
      metrics?.close();
      await metricsServer?.close();
      process.exitCode = exitCode;
    });
}
