import { spawnSync } from 'node:child_process';

/**
 * Vitest global setup: the CLI tests spawn `bin/tiqs-runner.js`, which runs the compiled
 * framework in dist/, so dist/ is rebuilt first when a source is newer than it.
 */
export function setup(): void {
  const run = spawnSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
  if (run.status !== 0)
    throw new Error(`scripts/ensure-build.mjs exited ${run.status ?? run.signal}`);
}
