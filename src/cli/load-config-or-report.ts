import { ConfigError } from '../config/config-error.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import { loadConfig } from '../config/load-config.ts';
import { EXIT } from './exit-codes.ts';

/**
 * Loads a config for a command. A bad one is reported on stderr (file, field path,
 * expectation) with exit code 3, and `undefined` is returned; other failures throw.
 */
export async function loadConfigOrReport(file: string): Promise<RunnerConfig | undefined> {
  try {
    return await loadConfig(file);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exitCode = EXIT.config;
    return undefined;
  }
}
