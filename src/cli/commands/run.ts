import { existsSync, readFileSync, unwatchFile, watchFile } from 'node:fs';
import { parseEnv } from 'node:util';
import { Command } from 'commander';
import { loadConfig } from '../../config/load-config.ts';
import { createLogger } from '../../logging/create-logger.ts';
import { Kernel, readTokenFile } from '../../runtime/kernel.ts';
import { StrategyLoadError } from '../../strategy/load-strategy.ts';
import { EXIT } from '../exit-codes.ts';
import { loadConfigOrReport } from '../load-config-or-report.ts';

/**
 * `tiqs-runner run --config F`: runs a bot until SIGINT or SIGTERM, then stops
 * gracefully and exits 0. SIGHUP re-reads the config's credentials (a new day's token)
 * and resumes a paused bot without a restart.
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
      const stopped = new Promise<void>((resolve) => {
        const stop = (signal: NodeJS.Signals) => {
          void kernel.stop(`received ${signal}`).then(resolve, (err: unknown) => {
            logger.error({ err }, 'error while stopping');
            resolve();
          });
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      let currentToken = config.broker.token;
      process.on('SIGHUP', () => {
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
      });
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
      await kernel.start();
      await stopped;
      if (tokenFile !== undefined) unwatchFile(tokenFile);
      process.exitCode = EXIT.ok;
    });
}
