import { dirname, resolve } from 'node:path';
import type { RunnerConfig } from './config-schema.ts';

/**
 * The one path rule: a relative path in a config file (defaults included) is relative to
 * the folder holding that file, wherever the command runs from. Returns the config with
 * every path absolute: `strategies[].module`, `broker.tokenFile`, `state.dir`,
 * `recording.dir`.
 */
export function resolveConfigPaths(config: RunnerConfig, file: string): RunnerConfig {
  const base = dirname(resolve(file));
  const at = (p: string): string => resolve(base, p);
  const { tokenFile } = config.broker;
  return {
    ...config,
    broker: { ...config.broker, ...(tokenFile === undefined ? {} : { tokenFile: at(tokenFile) }) },
    strategies: config.strategies.map((s) => ({ ...s, module: at(s.module) })),
    state: { ...config.state, dir: at(config.state.dir) },
    recording: { ...config.recording, dir: at(config.recording.dir) },
  };
}
