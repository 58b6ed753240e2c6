/**
 * Times whole node processes for the benches: wall time from spawn to exit, and the
 * child's own CPU time (user + system, all its threads), which the machine's other load
 * distorts less than wall time.
 */

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One timed process. */
export interface TimedRun {
  wallMs: number;
  cpuMs: number;
  stdout: string;
}

const hookDir = mkdtempSync(join(tmpdir(), 'tr-bench-timed-'));
const hook = join(hookDir, 'cpu-hook.mjs');
// Preloaded into the child (`--import`): writes its CPU time at exit. A few lines, loaded
// by every timed process alike.
writeFileSync(
  hook,
  "import { writeFileSync } from 'node:fs';\n" +
    "process.on('exit', () => { const u = process.cpuUsage(); writeFileSync(process.env.TR_CPU_OUT, String((u.user + u.system) / 1000)); });\n",
);
process.on('exit', () => rmSync(hookDir, { recursive: true, force: true }));

let runs = 0;

/**
 * Runs `node ...args` in the current folder, waits for it, and throws with its stderr
 * when it fails.
 *
 * @example
 * ```ts
 * const { wallMs } = timedNode(['bin/tiqs-runner.js', 'backtest', '--config', spec]);
 * ```
 */
export function timedNode(args: readonly string[]): TimedRun {
  const out = join(hookDir, `cpu-${runs++}.txt`);
  const t0 = performance.now();
  const run = spawnSync(process.execPath, ['--import', hook, ...args], {
    env: { ...process.env, TR_CPU_OUT: out },
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  const wallMs = performance.now() - t0;
  if (run.status !== 0) {
    throw new Error(
      `node ${args.join(' ')} failed (exit ${run.status ?? run.signal}): ${run.stderr.slice(0, 2_000)}`,
    );
  }
  return { wallMs, cpuMs: Number(readFileSync(out, 'utf8')), stdout: run.stdout };
}

/**
 * Builds `dist/` when a framework source is newer (scripts/ensure-build.mjs; nothing to do
 * when fresh), so the processes a bench times run the code in the tree.
 */
export function ensureBuild(): void {
  const run = spawnSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`scripts/ensure-build.mjs failed (exit ${run.status})`);
}

/** The median of `xs` (the mean of the middle two for an even count). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? (s[mid] ?? Number.NaN) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}
