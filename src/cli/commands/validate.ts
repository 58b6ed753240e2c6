import { Command } from 'commander';
import { ConfigError } from '../../config/config-error.ts';
import { StrategyLoadError } from '../../strategy/load-strategy.ts';
import { EXIT } from '../exit-codes.ts';
import { checkConfig } from '../load-config-or-report.ts';

/**
 * `tiqs-runner validate --config F`: checks a config, the folders it writes into and its
 * strategies' modules and params without running anything; the same checks `run` makes
 * before it starts.
 */
export function validateCommand(): Command {
  return new Command('validate')
    .description("Check a config file and its strategies' params without running anything")
    .requiredOption('-c, --config <file>', 'YAML config file')
    .action(async (opts: { config: string }) => {
      try {
        const config = await checkConfig(opts.config);
        process.stdout.write(
          `${opts.config}: ok (mode ${config.mode}, ${config.strategies.length} strateg${config.strategies.length === 1 ? 'y' : 'ies'})\n`,
        );
        process.exitCode = EXIT.ok;
      } catch (err) {
        if (err instanceof ConfigError || err instanceof StrategyLoadError) {
          process.stderr.write(`${err.message}\n`);
          process.exitCode = EXIT.config;
          return;
        }
        throw err;
      }
    });
}
