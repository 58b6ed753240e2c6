import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { ConfigError } from '../../config/config-error.ts';
import { loadConfig } from '../../config/load-config.ts';
import { loadStrategy, StrategyLoadError } from '../../strategy/load-strategy.ts';
import { EXIT } from '../exit-codes.ts';

/** `tiqs-runner validate --config F`: checks a config and its strategies' params without running. */
export function validateCommand(): Command {
  return new Command('validate')
    .description("Check a config file and its strategies' params without running anything")
    .requiredOption('-c, --config <file>', 'YAML config file')
    .action(async (opts: { config: string }) => {
      try {
        const config = await loadConfig(opts.config);
        const baseDir = resolve(dirname(resolve(opts.config)), '..');
        for (const s of config.strategies.filter((x) => x.enabled)) {
          await loadStrategy(s.id, s.module, s.params, baseDir);
        }
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
