/**
 * Sweeps on the queue (issue 17, point 6): the same 8-run sweep over 30 trading days run
 * through Redis by one and by two `tiqs-runner worker` processes (`--concurrency 1`
 * each), and as a local sweep with one worker process, in the same run.
 *
 * - data and grid: as bench/sweep-scaling.bench.ts (the sample day and its copies on the
 *   29 trading days before it; `sma.fast` [3, 5] × `sma.slow` [8, 13, 21, 34]);
 * - a real `redis-server` (test/helpers/redis-server.ts) on a free loopback port; the one
 *   worker listens on database 1, the two workers on database 2, so all three stay up
 *   and warm while only the mode under test gets jobs (the idle ones wait on a blocking
 *   read, no CPU);
 * - each mode first runs untimed sweeps: they publish the data to that database's blob
 *   store and fill the workers' caches and threads, as on a cluster that already ran a
 *   sweep. Every worker runs 8 jobs there (one sweep for the lone worker, two for the
 *   pair), since V8 goes on optimising a worker's code over its first jobs. Each timed
 *   sweep's spec carries a comment naming its round, so its job ids are new and every
 *   job really runs;
 * - timed: the whole submitter process (`tiqs-runner backtest --sweep --queue URL`:
 *   start-up, hashing the data, enqueueing, waiting, ranking, sweep.json), and the whole
 *   local process (`--sweep --workers 1`). Rounds alternate the order of the modes; the
 *   figures are medians.
 *
 * Target: 1 worker's wall time ≥ 1.6× that of 2 workers (exits non-zero when missed).
 * Reported beside it: the queue's per-job overhead against the local pool, as the ratio
 * of wall times and as the time outside the runs per job ((wall − Σ jobs' own time) / 8).
 * All modes must give the same results. Load average printed before and after: on the
 * shared 2-core machine, other sessions' load decides a parallel speed-up more than
 * anything (see the sweep-scaling bench on autogroup scheduling).
 *
 * Run: npm run bench -- sweep-queue   (BENCH_ROUNDS=n: n rounds, default 3)
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { REDIS_PREFIX, SWEEP_QUEUE_NAME } from '../src/backtest/queue/queue-protocol.ts';
import { startRedis } from '../test/helpers/redis-server.ts';
import { writeTradingDays } from './helpers/multi-day-data.ts';
import { writeSmaSpec } from './helpers/sma-spec.ts';
import { ensureBuild, median, type TimedRun, timedNode } from './helpers/timed-node.ts';

const DAYS = 30;
const RUNS = 8;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const TARGET = 1.6;

type Mode = 'local 1 process' | 'queue 1 worker' | 'queue 2 workers';
const MODES: readonly Mode[] = ['local 1 process', 'queue 1 worker', 'queue 2 workers'];

interface Row {
  id: number;
  ok: boolean;
  summary?: unknown;
  elapsedMs?: number;
}
interface Timed extends TimedRun {
  rows: Row[];
}

ensureBuild();
mkdirSync('var', { recursive: true });
// Inside the project: a queued job names its spec by the path from the project root.
const work = resolve(mkdtempSync(join('var', 'bench-sweep-queue-')));
const redis = await startRedis({ dir: join(work, 'redis') });
const workers: ChildProcess[] = [];
try {
  const data = await writeTradingDays(join(work, 'days'), DAYS);
  const base = readFileSync(
    writeSmaSpec(join(work, 'base.yaml'), {
      data,
      out: join(work, 'out'),
      slowValues: [8, 13, 21, 34],
    }),
    'utf8',
  );
  const db = (mode: Mode) => `${redis.url}/${mode === 'queue 1 worker' ? 1 : 2}`;
  const log = openSync(join(work, 'workers.log'), 'a');
  const startWorker = (url: string, n: number): void => {
    const args = ['bin/tiqs-runner.js', 'worker', '--queue', url, '--concurrency', '1'];
    args.push('--cache-dir', join(work, `cache-${n}`));
    workers.push(spawn(process.execPath, args, { stdio: ['ignore', log, log] }));
  };
  startWorker(db('queue 1 worker'), 0);
  startWorker(db('queue 2 workers'), 1);
  startWorker(db('queue 2 workers'), 2);
  // BullMQ lists workers from CLIENT LIST, which spans every database: all three.
  await connected(db('queue 1 worker'), 3);

  let sweeps = 0;
  const sweep = (mode: Mode, label: string): Timed => {
    const n = sweeps++;
    const spec = join(work, `spec-${n}.yaml`);
    writeFileSync(spec, `${base}# ${label}\n`);
    const out = join(work, `out-${n}`);
    const args = ['bin/tiqs-runner.js', 'backtest', '--config', spec, '--sweep', '--out', out];
    args.push(...(mode === 'local 1 process' ? ['--workers', '1'] : ['--queue', db(mode)]));
    const run = timedNode(args);
    const rows = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')).results as Row[];
    return { ...run, rows };
  };
  // Untimed: publish the data to each database, fill the workers' caches, warm them. Every
  // worker runs the same number of jobs (8) before the timed rounds, so each has compiled
  // its hot code as much as the others: one sweep for the lone worker, two for the pair.
  sweep('queue 1 worker', 'warm-up');
  sweep('queue 2 workers', 'warm-up 1');
  sweep('queue 2 workers', 'warm-up 2');

  const loadBefore = loadavg()[0] ?? 0;
  const runs = new Map<Mode, Timed[]>(MODES.map((m) => [m, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? MODES : [...MODES].reverse();
    for (const mode of order) runs.get(mode)?.push(sweep(mode, `round ${round} ${mode}`));
  }
  const loadAfter = loadavg()[0] ?? 0;

  const all = [...runs.values()].flat();
  const answers = (r: Timed) =>
    JSON.stringify(
      [...r.rows].sort((a, b) => a.id - b.id).map(({ id, ok, summary }) => ({ id, ok, summary })),
    );
  const first = all[0] as Timed;
  const odd = [...runs].flatMap(([mode, rs]) =>
    rs.filter((r) => answers(r) !== answers(first)).map((r) => ({ mode, r })),
  );
  if (odd.length > 0) {
    // Say which sweep differed and how: a failed run names its error (a worker whose
    // code version no longer matches the tree's, when sources change during the bench).
    const why = odd.map(({ mode, r }) => {
      const bad = r.rows.find((x) => !x.ok) as (Row & { error?: string }) | undefined;
      return `${mode}: ${bad === undefined ? 'other summaries' : `run ${bad.id} failed: ${bad.error}`}`;
    });
    throw new Error(`the local sweep and the queue gave different results:\n${why.join('\n')}`);
  }
  if (first.rows.length !== RUNS || !first.rows.every((r) => r.ok)) {
    throw new Error(`the sweep did not run ${RUNS} backtests: ${answers(first)}`);
  }

  const s = (ms: number) => `${(ms / 1_000).toFixed(1)} s`;
  const wall = (m: Mode) => median((runs.get(m) ?? []).map((r) => r.wallMs));
  const own = (m: Mode) =>
    median((runs.get(m) ?? []).map((r) => r.rows.reduce((n, x) => n + (x.elapsedMs ?? 0), 0)));
  console.log(`data: ${DAYS} trading days; ${RUNS} parameter sets; ${ROUNDS} round(s)`);
  console.log(
    `load: ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (1 min, ${availableParallelism()} cores here)`,
  );
  for (const m of MODES) {
    const rs = runs.get(m) ?? [];
    console.log(
      `${m.padEnd(16)} wall ${s(wall(m))} (${rs.map((r) => s(r.wallMs)).join(', ')})  submitter cpu ${s(median(rs.map((r) => r.cpuMs)))}  jobs' own time ${s(own(m))}`,
    );
  }
  // One runner at a time in both: the wall time beyond the runs' own is the overhead.
  const outside = (m: Mode) => (wall(m) - own(m)) / RUNS;
  console.log(
    `overhead  queue 1 worker / local 1 process wall time  ${(wall('queue 1 worker') / wall('local 1 process')).toFixed(2)}×; ` +
      `time outside the runs per job: queue ${outside('queue 1 worker').toFixed(0)} ms, local ${outside('local 1 process').toFixed(0)} ms`,
  );
  if (Math.max(loadBefore, loadAfter) > availableParallelism()) {
    console.log(
      `note      load above ${availableParallelism()} cores: other sessions hold the cores, so the speed-up below is the machine's, not the queue's`,
    );
  }
  const ratio = wall('queue 1 worker') / wall('queue 2 workers');
  const met = ratio >= TARGET;
  console.log(
    `target    1 worker / 2 workers wall time  ${ratio.toFixed(2)}×  (≥ ${TARGET}×: ${met ? 'met' : 'NOT met'})`,
  );
  if (!met) process.exitCode = 1;
} finally {
  for (const w of workers) w.kill('SIGTERM');
  await Promise.all(workers.map((w) => exited(w, 30_000)));
  await redis.stop();
  rmSync(work, { recursive: true, force: true });
}

/** Waits (bounded, polling Redis) until `n` workers listen on the queue at `url`. */
async function connected(url: string, n: number): Promise<void> {
  const conn = new Redis(url, { maxRetriesPerRequest: 3 });
  const q = new Queue(SWEEP_QUEUE_NAME, { connection: conn, prefix: REDIS_PREFIX });
  try {
    for (const until = Date.now() + 30_000; (await q.getWorkers()).length < n; ) {
      if (Date.now() > until) throw new Error(`${n} worker(s) did not connect to ${url} in 30 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await q.close();
    conn.disconnect();
  }
}

/** Resolves when `child` exits, SIGKILLing it past `ms`. */
function exited(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      done();
    });
  });
}
