/**
 * Whole-process backtest time on 30 trading days (issue 13's "whole process" target),
 * printed as a ratio to a whole-process floor timed in the same run:
 *
 * - data: the sample day and copies of it on the 29 trading days before it
 *   (bench/helpers/multi-day-data.ts, as bench/backtest-multi-day.bench.ts builds it);
 * - floor: bench/helpers/process-floor.ts, a TypeScript script that reads and decodes the
 *   recording with the project's reader and runs the SMA crossover by hand
 *   (bench/helpers/sma-floor.ts, the multi-day bench's floor);
 * - measured: `node bin/tiqs-runner.js backtest --config <spec>` with
 *   backtests/sma-crossover.yaml's strategy on the same data (it also writes its report).
 *
 * Run the same way, so the comparison is fair: both are a fresh `node` process running
 * the framework compiled in `dist/`, with the user's TypeScript file loaded as the CLI
 * loads a strategy: from the strategy cache (src/strategy/typescript-loader.ts,
 * `compiledStrategy`), with neither tsx nor esbuild loaded when the cache holds it. The
 * floor script goes through that same path (bench/helpers/run-like-strategy.mjs calls
 * the same compiled functions as load-strategy.ts, then imports the compiled script), so
 * its import of the reader's source resolves to the compiled `dist/` module the CLI uses.
 * Both use one cache folder of the bench's own (TIQS_RUNNER_CACHE_DIR), warmed by one
 * untimed run of each, so no timed run compiles. What is left between the two is what the
 * framework adds over decoding: config and strategy loading, the kernel, the replay,
 * orders, fills, metrics and the report.
 *
 * Rounds alternate floor and CLI (so drift in the machine's load hits both alike) and
 * the ratio is of medians; each process's CPU time is printed beside its wall time.
 * Target: the CLI's wall time ≤ 4× the floor's. Exits non-zero when it is missed.
 *
 * Run: npm run bench -- backtest-process   (BENCH_ROUNDS=n to change the 3 rounds)
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTradingDays } from './helpers/multi-day-data.ts';
import { writeSmaSpec } from './helpers/sma-spec.ts';
import { ensureBuild, median, type TimedRun, timedNode } from './helpers/timed-node.ts';

const DAYS = 30;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET = 4;

ensureBuild();
const work = mkdtempSync(join(tmpdir(), 'tr-bench-process-'));
try {
  const data = await writeTradingDays(join(work, 'days'), DAYS);
  const spec = writeSmaSpec(join(work, 'spec.yaml'), { data, out: join(work, 'out') });
  const floorArgs = ['bench/helpers/run-like-strategy.mjs', 'bench/helpers/process-floor.ts', data];
  const cliArgs = ['bin/tiqs-runner.js', 'backtest', '--config', spec];
  const load = loadavg()[0] ?? 0;

  // One strategy cache for both, compiled by an untimed run of each: timed runs load it.
  process.env.TIQS_RUNNER_CACHE_DIR = join(work, 'strategy-cache');
  timedNode(floorArgs);
  timedNode(cliArgs);
  const floors: TimedRun[] = [];
  const clis: TimedRun[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    floors.push(timedNode(floorArgs));
    clis.push(timedNode(cliArgs));
  }
  const seen = JSON.parse(floors[0]?.stdout ?? '{}') as { records: number; crossings: number };
  // A run that replayed everything but traded nothing (a strategy that failed) would
  // time a cheaper path than the one the target is about.
  const cliOut = clis[0]?.stdout ?? '';
  const events = Number(/(\d+) quote events/.exec(cliOut)?.[1]);
  const orders = Number(/orders \/ fills\s+(\d+)/.exec(cliOut)?.[1]);
  if (events !== seen.records || !(orders > 0) || cliOut.includes('failed strategies')) {
    throw new Error(
      `the CLI replayed ${events} records and placed ${orders} orders (the floor decoded ${seen.records} records, ${seen.crossings} crossings):\n${cliOut}`,
    );
  }

  const s = (ms: number) => `${(ms / 1_000).toFixed(2)} s`;
  const line = (name: string, runs: readonly TimedRun[]) =>
    `${name}  wall ${s(median(runs.map((r) => r.wallMs)))} (${runs.map((r) => s(r.wallMs)).join(', ')})  cpu ${s(median(runs.map((r) => r.cpuMs)))}`;
  console.log(
    `data: ${DAYS} trading days, ${seen.records} records (floor: ${seen.crossings} crossings; CLI: ${orders} orders)`,
  );
  console.log(`load: ${load.toFixed(2)} before, ${(loadavg()[0] ?? 0).toFixed(2)} after (1 min)`);
  console.log(line('floor script ', floors));
  console.log(line('CLI backtest ', clis));
  const ratio = median(clis.map((r) => r.wallMs)) / median(floors.map((r) => r.wallMs));
  const cpuRatio = median(clis.map((r) => r.cpuMs)) / median(floors.map((r) => r.cpuMs));
  const met = ratio <= TARGET;
  console.log(`cpu ratio ${cpuRatio.toFixed(2)}×`);
  console.log(
    `target    CLI / floor wall time on ${DAYS} days  ${ratio.toFixed(2)}×  (≤ ${TARGET}×: ${met ? 'met' : 'NOT met'})`,
  );
  if (!met) process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
