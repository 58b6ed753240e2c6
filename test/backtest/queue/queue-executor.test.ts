import { type Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Summary } from '../../../src/backtest/metrics.ts';
import {
  QueueExecutor,
  QueueInterruptedError,
  type QueueProgress,
  type QueueSubmission,
  type QueueSubmitted,
} from '../../../src/backtest/queue/queue-executor.ts';
import {
  type QueueJobData,
  type QueueJobResult,
  REDIS_PREFIX,
  SWEEP_QUEUE_NAME,
} from '../../../src/backtest/queue/queue-protocol.ts';
import {
  checkQueueReachable,
  QueueUnavailableError,
} from '../../../src/backtest/queue/queue-reachable.ts';
import type { SweepJob, SweepResult } from '../../../src/backtest/sweep-protocol.ts';
import { pollUntil } from '../../helpers/poll-until.ts';
import { describeWithRedis, type RedisServer, startRedis } from '../../helpers/redis-server.ts';

// The submitter's side of issue 17 against a real redis-server, with a BullMQ Worker run
// in this process by a trivial processor (the real worker is tested in queue-worker.test.ts
// and end to end by the e2e sweep-queue tests).

const SUBMISSION: QueueSubmission = {
  spec: 'exec-test',
  specText: 'backtest: {}\n',
  specPath: 'backtests/exec-test.yaml',
  data: [{ path: 'meta.json', size: 2, sha256: 'a'.repeat(64) }],
  dataSource: 'redis',
  codeVersion: '0.0.0+test',
};

const grid = (values: readonly number[]): SweepJob[] =>
  values.map((x, id) => ({ type: 'job', id, specFile: '/nowhere.yaml', params: { 's.x': x } }));

/** A run's summary whose netPnl is the param: enough for the ranking. */
const summaryOf = (x: number): Summary => ({ netPnl: x, trades: 1 }) as unknown as Summary;

let redis: RedisServer;
const workers: Worker[] = [];
const executors: QueueExecutor[] = [];
/** Job ids the processor ran (a job run twice shows twice). */
const ran: string[] = [];

/** Processor: x = 13 refuses for good (while `unlucky`); x ≥ 100 holds until released. */
let unlucky = true;
let release: () => void = () => undefined;
let held = new Promise<void>((resolve) => {
  release = resolve;
});
async function processor(job: Job<QueueJobData, QueueJobResult>): Promise<QueueJobResult> {
  ran.push(job.id ?? '?');
  const x = Number(job.data.params['s.x']);
  if (x === 13 && unlucky) throw new UnrecoverableError(`unlucky ${x}`);
  if (x >= 100) await held;
  return {
    type: 'result',
    id: job.data.index,
    params: job.data.params,
    ok: true,
    summary: summaryOf(x),
    elapsedMs: 1,
    runner: 'test-host:1',
    jobId: job.id ?? '?',
  };
}

function startWorker(db = 0, name = 'test-host:1'): Worker {
  const worker = new Worker<QueueJobData, QueueJobResult>(SWEEP_QUEUE_NAME, processor, {
    connection: { host: '127.0.0.1', port: redis.port, db, maxRetriesPerRequest: null },
    prefix: REDIS_PREFIX,
    name,
    concurrency: 2,
  });
  workers.push(worker);
  return worker;
}

function executor(
  o: {
    onProgress?: (p: QueueProgress) => void;
    onSubmitted?: (s: QueueSubmitted) => void;
    signal?: AbortSignal;
    submission?: QueueSubmission;
  } = {},
): QueueExecutor {
  const e = new QueueExecutor({
    connection: { host: '127.0.0.1', port: redis.port, db: 0 },
    submission: o.submission ?? SUBMISSION,
    pollMs: 200,
    ...o,
  });
  executors.push(e);
  return e;
}

async function collect(e: QueueExecutor, jobs: readonly SweepJob[]): Promise<SweepResult[]> {
  const results: SweepResult[] = [];
  for await (const r of e.run(jobs)) results.push(r);
  return results.sort((a, b) => a.id - b.id);
}

async function withQueue<T>(fn: (q: Queue) => Promise<T>): Promise<T> {
  const q = new Queue(SWEEP_QUEUE_NAME, {
    connection: { host: '127.0.0.1', port: redis.port },
    prefix: REDIS_PREFIX,
  });
  try {
    return await fn(q);
  } finally {
    await q.close();
  }
}

describeWithRedis('QueueExecutor (real redis-server)', () => {
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    release();
    await Promise.all(workers.splice(0).map((w) => w.close()));
    await Promise.all(executors.splice(0).map((e) => e.close()));
    await withQueue((q) => q.obliterate({ force: true }));
    ran.length = 0;
    unlucky = true;
    held = new Promise<void>((resolve) => {
      release = resolve;
    });
  });
  afterAll(() => redis?.stop());

  it('gives deterministic job ids; a second submission runs nothing and reads the results', async () => {
    startWorker();
    const jobs = grid([1, 2, 3]);
    const first = await collect(executor(), jobs);
    expect(first.map((r) => r.ok && r.summary.netPnl)).toEqual([1, 2, 3]);
    const ids = first.map((r) => (r as { jobId?: string }).jobId);
    expect(ids.every((id) => /^run-[0-9a-f]{64}$/.test(id ?? ''))).toBe(true);
    expect(first.map((r) => (r as { runner?: string }).runner)).toEqual(
      Array(3).fill('test-host:1'),
    );

    const again = executor();
    expect(jobs.map((j) => again.jobIdOf(j))).toEqual(ids);
    let submitted: QueueSubmitted | undefined;
    const second = await collect(executor({ onSubmitted: (s) => (submitted = s) }), jobs);
    // Checked it can fail: with `jobId` left out of addBulk's options (BullMQ's own ids),
    // this went red (nothing was found done; the jobs were queued and run again).
    expect(submitted).toEqual({ jobs: 3, alreadyDone: 3, retried: 0, attached: 0 });
    expect(second).toEqual(first);
    expect(ran).toHaveLength(3);
    expect(await withQueue((q) => q.getJobCountByTypes('completed', 'wait', 'active'))).toBe(3);
  });

  it('reports a failed job with its params and error; the others complete', async () => {
    startWorker();
    const results = await collect(executor(), grid([5, 13, 8]));
    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
    const failed = results[1];
    expect(failed?.params).toEqual({ 's.x': 13 });
    // Checked it can fail: with failed jobs mapped through completedResult, the error read
    // "completed without a sweep result".
    expect(failed?.ok === false && failed.error).toMatch(/failed after 1 attempt: unlucky 13/);
  });

  it('queues a failed job again when the submission is run again', async () => {
    startWorker();
    const first = await collect(executor(), grid([13]));
    expect(first[0]?.ok).toBe(false);
    unlucky = false; // what failed it is mended (say, the workers updated)
    let submitted: QueueSubmitted | undefined;
    const again = await collect(executor({ onSubmitted: (s) => (submitted = s) }), grid([13]));
    // Checked it can fail: with failed jobs counted as done (no retry), the rerun read the
    // old failure and `retried` was 0.
    expect(submitted).toEqual({ jobs: 1, alreadyDone: 0, retried: 1, attached: 0 });
    expect(again[0]?.ok).toBe(true);
  });

  it('counts done, failed, running and the workers seen', async () => {
    startWorker();
    const seen: QueueProgress[] = [];
    const results = collect(executor({ onProgress: (p) => seen.push(p) }), grid([100, 101, 13, 4]));
    // Both of the worker's slots hold a job (x ≥ 100) while 13 and 4 wait or finish.
    await until(() => seen.some((p) => p.active === 2));
    release();
    expect((await results).map((r) => r.ok)).toEqual([true, true, false, true]);
    // Checked it can fail: with `failed` not counted, the last progress said failed 0.
    expect(seen.at(-1)).toEqual({
      total: 4,
      done: 4,
      failed: 1,
      active: 0,
      workers: ['test-host:1'],
    });
    expect(seen.find((p) => p.active === 2)?.workers).toEqual(['test-host:1']);
  });

  it('counts only the workers on its own database of the server', async () => {
    // CLIENT LIST names every client of the server; a worker on database 1 never takes
    // database 0's jobs. Checked to fail: without the db filter, both names were listed.
    startWorker(0, 'here:1');
    startWorker(1, 'elsewhere:2');
    const seen: QueueProgress[] = [];
    await until(() => withQueue(async (q) => (await q.getWorkers()).length >= 2));
    await collect(executor({ onProgress: (p) => seen.push(p) }), grid([1]));
    expect(seen.at(-1)?.workers).toEqual(['here:1']);
  });

  it('removes only this submission’s unfinished jobs', async () => {
    const otherJobs = executor({ submission: { ...SUBMISSION, specText: 'another: spec\n' } });
    const stop = new AbortController();
    const mine = executor({ signal: stop.signal, onSubmitted: () => stop.abort() });
    // Another submission's job waits in the same queue; no worker runs yet.
    const otherRun = collect(otherJobs, grid([7]));
    await until(async () => (await withQueue((q) => q.getWaitingCount())) === 1);
    await expect(collect(mine, grid([1, 2, 3]))).rejects.toThrow(QueueInterruptedError);
    expect(mine.unfinished).toHaveLength(3);
    expect(await mine.removeUnfinished()).toEqual({ removed: 3, running: 0 });
    // Checked it can fail: with removeUnfinished obliterating the queue's waiting list
    // (q.drain()), the other submission's job went too and this list was empty.
    const left = await withQueue((q) => q.getJobs(['waiting', 'delayed', 'active']));
    expect(left.map((j) => j.id)).toEqual([otherJobs.jobIdOf(grid([7])[0] as SweepJob)]);
    startWorker();
    expect((await otherRun).map((r) => r.ok)).toEqual([true]);
  });

  it('a job held by a worker is not removed: it finishes and is counted as running', async () => {
    startWorker();
    const stop = new AbortController();
    const seen: QueueProgress[] = [];
    const mine = executor({ signal: stop.signal, onProgress: (p) => seen.push(p) });
    const run = collect(mine, grid([100, 101, 102]));
    await until(() => seen.some((p) => p.active === 2));
    stop.abort();
    await expect(run).rejects.toThrow(QueueInterruptedError);
    // Checked it can fail: with every unfinished job tried and counted as removed, this
    // read { removed: 3, running: 0 }.
    expect(await mine.removeUnfinished()).toEqual({ removed: 1, running: 2 });
    release();
    await until(async () => (await withQueue((q) => q.getCompletedCount())) === 2);
  });

  it('queues again a job the queue lost, and rides out a Redis restart', async () => {
    const seen: QueueProgress[] = [];
    const e = executor({ onProgress: (p) => seen.push(p) });
    const run = collect(e, grid([1, 100]));
    await until(async () => (await withQueue((q) => q.getWaitingCount())) === 2);
    // Someone removed one of the jobs (another submitter's Ctrl-C, say): it is added again.
    // Checked it can fail: with lost jobs not added again, this waited for ever (timed out).
    const lostId = e.jobIdOf(grid([1])[0] as SweepJob);
    await withQueue((q) => q.remove(lostId));
    startWorker();
    await until(() => seen.some((p) => p.done === 1 && p.active === 1));
    await redis.restart();
    release();
    const results = await run;
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(ran.filter((id) => id === lostId).length).toBeGreaterThanOrEqual(1);
  }, 40_000);

  it('takes an interrupt at once while Redis is down, and closes within its bound', async () => {
    const stop = new AbortController();
    const e = executor({ signal: stop.signal });
    const run = collect(e, grid([1, 2]));
    await until(async () => (await withQueue((q) => q.getWaitingCount())) === 2);
    await redis.stop();
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a poll now waits on Redis
    const started = Date.now();
    stop.abort();
    // Checked it can fail: with the reads not raced against the interrupt, this took as
    // long as ioredis's retries (the test timed out).
    await expect(run).rejects.toThrow(QueueInterruptedError);
    // At once: the broken wait took ioredis's retries, about 30 s; 5 s leaves a busy CI room.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await e.close()).toMatch(/^(closed|stuck)$/);
    expect(Date.now() - started).toBeLessThan(7_000);
    await redis.restart();
  }, 30_000);

  it('says at once, naming the URL, when Redis cannot be reached', async () => {
    const started = Date.now();
    const closed = redis.port === 1 ? 2 : 1;
    const err = await checkQueueReachable(
      { host: '127.0.0.1', port: closed, db: 0 },
      `redis://u:***@127.0.0.1:${closed}`,
      2_000,
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueueUnavailableError);
    expect((err as Error).message).toContain(`redis://u:***@127.0.0.1:${closed}`);
    expect(Date.now() - started).toBeLessThan(2_500);
    await checkQueueReachable({ host: '127.0.0.1', port: redis.port, db: 0 }, 'x');
  });
});

/** Polls `check` (real Redis state) every 50 ms until it is true; fails past 15 s. */
const until = (check: () => Promise<boolean> | boolean): Promise<void> =>
  pollUntil(check, 15_000, 'the queue to reach the state the test waits for', 50);
