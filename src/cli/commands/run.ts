import { existsSync, readFileSync, unwatchFile, watchFile } from 'node:fs';
import { constants } from 'node:os';
import { parseEnv } from 'node:util';
import { Command } from 'commander';
import { loadConfig } from '../../config/load-config.ts';
import { createLogger } from '../../logging/create-logger.ts';
import { Kernel } from '../../runtime/kernel.ts';
import { readTokenFile } from '../../runtime/read-token-file.ts';
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
 * exits. A second signal exits at once (128 + the signal's number). SIGHUP re-reads the
 * config's credentials (a new day's token) and resumes a paused bot without a restart.
 */
export function runCommand(): Command {
  return new Command('run')
    .description('Run a bot from a YAML config until Ctrl-C')
    .requiredOption('-c, --config <file>', 'YAML config file')
    .action(async (opts: { config: string }) => {
      const config = await loadConfigOrReport(opts.config);
      if (config === undefined) return;
      const logger = createLogger({ level: config.logging.level, format: config.logging.format });
      let kernel: Kernel;
      try {
        kernel = await Kernel.create({ config, configFile: opts.config, logger });
      } catch (err) {
        if (err instanceof StrategyLoadError) {
          process.stderr.write(`${err.message}\n`);
          process.exitCode = EXIT.config;
          return;
        }
        throw err;
      }
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
          void kernel.stop(`received ${signal}`, budget.signal).then(
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
      let currentToken = config.broker.token;
      const onHangUp = () => {
        // An env file next to the bot holds the day's token. Its values win over the
        // environment the process started with (process.loadEnvFile would not override).
        const env = existsSync('.env')
          ? { ...process.env, ...parseEnv(readFileSync('.env', 'utf8')) }
          : process.env;
        loadConfig(opts.config, env)
          .then((fresh) => {
            if (fresh.broker.appId !== undefined && fresh.broker.token !== undefined) {
              if (fresh.broker.token === currentToken) {
                logger.warn('SIGHUP: the token is unchanged; still using the old one');
                return;
              }
              currentToken = fresh.broker.token;
              kernel.setCredentials({ appId: fresh.broker.appId, token: fresh.broker.token });
              logger.info('credentials reloaded on SIGHUP');
            } else {
              logger.warn('SIGHUP: the config has no appId/token to reload');
            }
          })
          .catch((err: unknown) =>
            logger.error(
              { err: err instanceof Error ? err.message : String(err) },
              'SIGHUP: could not reload the config',
            ),
          );
      };
      process.on('SIGHUP', onHangUp);
      const { tokenFile } = config.broker;
      if (tokenFile !== undefined && config.broker.appId !== undefined) {
        const appId = config.broker.appId;
        // Polling the file's stat is portable and cheap at this interval.
        watchFile(tokenFile, { interval: 2_000 }, () => {
          readTokenFile(tokenFile)
            .then((token) => {
              if (token === '') return;
              kernel.setCredentials({ appId, token });
              logger.info({ file: tokenFile }, 'token file changed: credentials reloaded');
            })
            .catch((err: unknown) =>
              logger.warn(
                { err: err instanceof Error ? err.message : String(err) },
                'token file unreadable',
              ),
            );
        });
      }
      // A stop may come while starting (e.g. the service does not answer at all).
      await Promise.race([kernel.start(), stopped]);
      await stopped;
      if (tokenFile !== undefined) unwatchFile(tokenFile);
      process.off('SIGHUP', onHangUp);
      process.exitCode = exitCode;
    });
}
