import { dirname, resolve } from 'node:path';
import { Command } from 'commander';
import { ConfigError } from '../../config/config-error.ts';
import type { RunnerConfig } from '../../config/config-schema.ts';
import { loadStrategy, StrategyLoadError } from '../../strategy/load-strategy.ts';
import { EXIT } from '../exit-codes.ts';
import { instrumentProblems } from '../instrument-problems.ts';
import { checkConfig } from '../load-config-or-report.ts';
import { validationMaster } from '../validation-master.ts';

/**
 * `tiqs-runner validate --config F`: checks a config, the folders it writes into and its
 * strategies' modules and params without running anything; the same checks `run` makes
 * before it starts. Then, unless `--offline`, every token and symbol the config names
 * (strategy params, `recording.instruments`) against the instrument master, when one can
 * be had (see `validationMaster`); a service that cannot be reached is said, not failed.
 */
export function validateCommand(): Command {
  return new Command('validate')
    .description("Check a config file and its strategies' params without running anything")
    .requiredOption('-c, --config <file>', 'YAML config file')
    .option('--offline', 'skip checking tokens and symbols against the instrument master')
    .action(async (opts: { config: string; offline?: boolean }) => {
      try {
        const config = await checkConfig(opts.config);
        const checked =
          opts.offline === true
            ? 'not checked (--offline)'
            : await checkInstruments(config, opts.config);
        if (checked === undefined) return;
        process.stdout.write(
          `${opts.config}: ok (mode ${config.mode}, ${config.strategies.length} strateg${config.strategies.length === 1 ? 'y' : 'ies'}; instruments ${checked})\n`,
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

/**
 * Checks the config's tokens and symbols against the master. Prints the problems and sets
 * exit code 3 (returns `undefined`) when there are any; otherwise says what was checked.
 */
async function checkInstruments(config: RunnerConfig, file: string): Promise<string | undefined> {
  const { store, status } = await validationMaster(config, file);
  if (status.origin === 'none') return `not checked (no instrument master: ${status.problem})`;
  const strategies = [];
  for (const [index, s] of config.strategies.entries()) {
    if (!s.enabled) continue;
    // Cached by the module loader: checkConfig imported it already.
    const loaded = await loadStrategy(s.id, s.module, s.params, dirname(resolve(file)));
    strategies.push({ index, params: loaded.params });
  }
  const problems = instrumentProblems(config, strategies, store);
  if (problems.length > 0) {
    for (const p of problems) process.stderr.write(`${file}: ${p.path}: ${p.message}\n`);
    process.exitCode = EXIT.config;
    return undefined;
  }
  const from =
    status.origin === 'stale-cache'
      ? `the cached master of ${status.day}`
      : `the master of ${status.day ?? 'today'}`;
  return `checked against ${from}`;
}
