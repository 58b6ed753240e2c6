import { dirname, resolve } from 'node:path';
import { checkConfigPaths } from '../config/check-config-paths.ts';
import { ConfigError } from '../config/config-error.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import { loadConfig } from '../config/load-config.ts';
import { loadStrategy, StrategyLoadError } from '../strategy/load-strategy.ts';
import { EXIT } from './exit-codes.ts';

/**
 * Everything that can be checked about a config before a bot starts: the file itself,
 * the folders it writes into, and each enabled strategy's module and params. Throws
 * {@link ConfigError} or {@link StrategyLoadError}. Strategy modules are imported here
 * (once: the module cache serves the kernel's import).
 */
export async function checkConfig(file: string): Promise<RunnerConfig> {
  const config = await loadConfig(file);
  await checkConfigPaths(config, file);
  for (const [index, s] of config.strategies.entries()) {
    if (s.enabled)
      await loadStrategy(s.id, s.module, s.params, dirname(resolve(file)), { file, index });
  }
  return config;
}

/**
 * Checks a config for a command (see {@link checkConfig}). A bad one is reported on
 * stderr (file, field path, expectation) with exit code 3, and `undefined` is returned;
 * other failures throw.
 */
export async function loadConfigOrReport(file: string): Promise<RunnerConfig | undefined> {
  try {
    return await checkConfig(file);
  } catch (err) {
    if (!(err instanceof ConfigError || err instanceof StrategyLoadError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exitCode = EXIT.config;
    return undefined;
  }
}
