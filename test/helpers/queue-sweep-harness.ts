import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { stringify } from 'yaml';
import { REDIS_PREFIX, SWEEP_QUEUE_NAME } from '../../src/backtest/queue/queue-protocol.ts';
import {
  type Child,
  killAll,
  REPO,
  spawnRunner,
  waitForExit,
} from '../e2e/helpers/child-process.ts';
import { pollUntil } from './poll-until.ts';
import { type BlobStats, blobStats, type QueueCensus, queueCensus } from './queue-census.ts';
import { type RedisServer, startRedis } from './redis-server.ts';

/** The shipped sample day: the tests' recording (2 files, ~0.3 s a run). */
export const SAMPLE_DAY = resolve(REPO, 'backtests/data/sample-day');

/**
 * Stall settings of the test workers: a worker killed with -9 loses its lock after
 * `TIQS_QUEUE_LOCK_MS` and another worker's check every `TIQS_QUEUE_STALLED_MS` moves its
 * job back to wait, so recovery takes seconds instead of BullMQ's default 30 s.
 */
const STALL_ENV = { TIQS_QUEUE_LOCK_MS: '2000', TIQS_QUEUE_STALLED_MS: '1000' };

/** A sweep spec's grid and the probe strategy's fixed params. */
export interface SpecOptions {
  /** `backtest.sweep.params`, e.g. `{ 'sma.slow': [8, 13], 'probe.fail': [false, true] }`. */
  grid: Record<string, readonly (number | boolean | string)[]>;
  /** The probe's `holdMs`: each run blocks that long (default 0). */
  holdMs?: number;
  /** Recording folder (default the sample day). */
  data?: string;
}

/** One run of a sweep's `sweep.json` (the fields the tests compare). */
export interface SweepRow {
  id: number;
  ok: boolean;
  params: Record<string, unknown>;
  summary?: Record<string, unknown>;
  error?: string;
  jobId?: string;
  runner?: string;
}

/** What a finished submitter left. */
export interface SweepOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** `sweep.json`'s results, ranked as written; empty when it wrote none. */
  results: SweepRow[];
}

/** Options of a submission. */
export interface SubmitOptions {
  /** Report folder (default a fresh one). */
  out?: string;
  dataDir?: string;
  /** Extra CLI arguments. */
  args?: readonly string[];
}

/**
 * A real distributed sweep for the e2e tests: a `redis-server` (appendonly) on a free
 * loopback port, `tiqs-runner worker` child processes and the submitter
 * (`tiqs-runner backtest --sweep --queue`) as children, all from the compiled CLI, with
 * counts read from Redis. Specs and outputs live in a folder under the project's `var/`
 * (a spec must sit inside the project: jobs name it by its path from the project root).
 * {@link dispose} kills what still runs, stops Redis and removes the folder.
 */
export class QueueSweepWorld {
  readonly workers: Child[] = [];
  private outs = 0;

  private constructor(
    readonly dir: string,
    readonly redis: RedisServer,
  ) {}

  /** Starts Redis in a fresh folder. */
  static async start(): Promise<QueueSweepWorld> {
    mkdirSync(join(REPO, 'var'), { recursive: true });
    const dir = mkdtempSync(join(REPO, 'var', 'e2e-sweep-queue-'));
    const redis = await startRedis({ dir: join(dir, 'redis') });
    return new QueueSweepWorld(dir, redis);
  }

  get url(): string {
    return this.redis.url;
  }

  /** Writes a sweep spec (the SMA crossover beside the probe) and returns its path. */
  writeSpec(name: string, o: SpecOptions): string {
    const file = join(this.dir, `${name}.yaml`);
    const spec = {
      backtest: {
        data: o.data ?? SAMPLE_DAY,
        capital: 1_000_000,
        logLevel: 'silent',
        sweep: { rankBy: 'netPnl', params: o.grid },
      },
      marketData: { intervalMs: 5000 },
      strategies: [
        {
          id: 'sma',
          module: resolve(REPO, 'strategies/sma-crossover.ts'),
          params: { fast: 3, slow: 8, interval: '1m', quantity: 100 },
        },
        {
          id: 'probe',
          module: resolve(REPO, 'test/fixtures/strategies/sweep-probe.ts'),
          params: { holdMs: o.holdMs ?? 0 },
        },
      ],
      paper: { latencyMs: 250, slippageTicks: 0 },
    };
    writeFileSync(file, stringify(spec));
    return file;
  }

  /** A fresh folder under the world's. */
  folder(name: string): string {
    const dir = join(this.dir, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /**
   * Starts `tiqs-runner worker --concurrency 1` with the short stall settings and its own
   * cache folder (as on its own machine), unless `cacheDir` names a shared one.
   */
  startWorker(o: { dataDir?: string; cacheDir?: string; concurrency?: number } = {}): Child {
    const n = this.workers.length;
    const args = ['worker', '--queue', this.url, '--concurrency', String(o.concurrency ?? 1)];
    args.push('--cache-dir', o.cacheDir ?? this.folder(`cache-${n}`));
    if (o.dataDir !== undefined) args.push('--data-dir', o.dataDir);
    const child = spawnRunner(args, { ...STALL_ENV, FORCE_COLOR: '0' });
    this.workers.push(child);
    return child;
  }

  /** Starts `n` workers and waits (bounded) until Redis lists them all. */
  async startWorkers(n: number, o: { dataDir?: string } = {}): Promise<Child[]> {
    const started = Array.from({ length: n }, () => this.startWorker(o));
    await this.waitFor(
      async () => (await this.workerNames()).length >= this.running().length,
      30_000,
      `${n} workers to connect`,
    );
    return started;
  }

  /** Workers still running. */
  running(): Child[] {
    return this.workers.filter((w) => w.proc.exitCode === null && w.proc.signalCode === null);
  }

  /** Names (`host:pid`) of the workers connected to the queue, as BullMQ lists them. */
  async workerNames(): Promise<string[]> {
    return this.withQueue(async (q) => (await q.getWorkers()).map((w) => w.name ?? ''));
  }

  /** Starts the submitter; the caller waits for it ({@link finish}) or kills it. */
  submit(spec: string, o: SubmitOptions = {}): { child: Child; out: string } {
    const out = o.out ?? this.folder(`out-${this.outs++}`);
    const args = ['backtest', '--config', spec, '--sweep', '--queue', this.url, '--out', out];
    if (o.dataDir !== undefined) args.push('--data-dir', o.dataDir);
    args.push(...(o.args ?? []));
    return { child: spawnRunner(args, { FORCE_COLOR: '0' }), out };
  }

  /** Waits (bounded) for a submitter to exit and reads what it wrote. */
  async finish(s: { child: Child; out: string }, timeoutMs = 60_000): Promise<SweepOutcome> {
    const { code, signal } = await waitForExit(s.child, timeoutMs).catch(async (err: Error) => {
      // Say what Redis holds: a job lost or stuck shows here, not as a bare timeout.
      const c = await this.census();
      const left = [...c.byId.values()].filter((j) => j.state !== 'completed');
      const states = left.map((j) => `#${j.index} ${j.state}`).join(', ');
      throw new Error(
        `the submitter did not finish: ${err.message}; Redis holds ${c.jobs} jobs, ${c.completed} completed, not completed: ${states || 'none'}`,
        { cause: err },
      );
    });
    let results: SweepRow[] = [];
    try {
      const file = JSON.parse(readFileSync(join(s.out, 'sweep.json'), 'utf8'));
      results = file.results as SweepRow[];
    } catch {
      // No sweep.json: the caller asserts on the exit code and stderr.
    }
    return {
      code,
      signal,
      stdout: s.child.lines.join('\n'),
      stderr: s.child.stderr(),
      results,
    };
  }

  /** Submits and waits for the sweep to finish. */
  async sweep(spec: string, o: SubmitOptions = {}, timeoutMs = 60_000): Promise<SweepOutcome> {
    return this.finish(this.submit(spec, o), timeoutMs);
  }

  /** The same spec swept locally on worker threads (`--workers 2`): the reference. */
  async localSweep(spec: string): Promise<SweepRow[]> {
    const out = this.folder(`local-${this.outs++}`);
    const child = spawnRunner([
      'backtest',
      '--config',
      spec,
      '--sweep',
      '--workers',
      '2',
      '--out',
      out,
    ]);
    const { code } = await waitForExit(child, 60_000);
    if (code !== 0) throw new Error(`local sweep exited ${code}: ${child.stderr().slice(-2_000)}`);
    return JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')).results as SweepRow[];
  }

  census(): Promise<QueueCensus> {
    return queueCensus(this.url);
  }

  blobStats(): Promise<BlobStats> {
    return blobStats(this.url);
  }

  /** Runs `fn` with a BullMQ Queue on the world's Redis, closed after. */
  async withQueue<T>(fn: (q: Queue) => Promise<T>): Promise<T> {
    const redis = new Redis(this.url, { maxRetriesPerRequest: 3 });
    const q = new Queue(SWEEP_QUEUE_NAME, { connection: redis, prefix: REDIS_PREFIX });
    try {
      return await fn(q);
    } finally {
      await q.close();
      redis.disconnect();
    }
  }

  /**
   * Polls `test` every 100 ms until it holds, at most `timeoutMs` (bounded polling of
   * real I/O: Redis or a child's output); rejects naming `what` on timeout.
   */
  waitFor(test: () => Promise<boolean> | boolean, timeoutMs: number, what: string): Promise<void> {
    return pollUntil(test, timeoutMs, what);
  }

  /** Waits until some job is active and returns it with the worker name holding it. */
  async activeJob(timeoutMs: number): Promise<{ id: string; worker: string }> {
    let found: { id: string; worker: string } | undefined;
    await this.waitFor(
      () =>
        this.withQueue(async (q) => {
          const [job] = await q.getJobs(['active']);
          if (job?.id !== undefined && job.processedBy !== undefined) {
            found = { id: job.id, worker: job.processedBy };
          }
          return found !== undefined;
        }),
      timeoutMs,
      'an active job',
    );
    return found as { id: string; worker: string };
  }

  /** The worker child whose BullMQ name (`host:pid`) is `name`. */
  workerNamed(name: string): Child {
    const pid = Number(name.split(':').at(-1));
    const w = this.workers.find((c) => c.pid === pid);
    if (w === undefined) throw new Error(`no worker child with pid ${pid} (${name})`);
    return w;
  }

  /** SIGTERMs the workers (bounded), then kills what is left and stops Redis. */
  async dispose(): Promise<void> {
    for (const w of this.running()) w.signal('SIGTERM');
    await Promise.allSettled(this.workers.map((w) => waitForExit(w, 10_000)));
    await killAll();
    await this.redis.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A sweep's runs by grid index, reduced to what must match between a distributed and a
 * local sweep: params, outcome, summary or error (times and who ran it aside).
 */
export function runsById(results: readonly SweepRow[]): unknown[] {
  return [...results]
    .sort((a, b) => a.id - b.id)
    .map(({ id, ok, params, summary, error }) => ({ id, ok, params, summary, error }));
}

/** Runs of a sweep.json that share a grid index with an earlier one (must be 0). */
export function duplicateRows(results: readonly SweepRow[]): number {
  return results.length - new Set(results.map((r) => r.id)).size;
}
