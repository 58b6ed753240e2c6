import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { RedisBlobStore } from '../../../src/backtest/queue/blob-store.ts';
import { CodeVersionError } from '../../../src/backtest/queue/code-version.ts';
import { publishData } from '../../../src/backtest/queue/publish-data.ts';
import {
  type DataFile,
  type QueueJobData,
  type QueueJobResult,
  REDIS_PREFIX,
  SWEEP_QUEUE_NAME,
} from '../../../src/backtest/queue/queue-protocol.ts';
import { QueueWorker } from '../../../src/backtest/queue/queue-worker.ts';
import { ThreadPool } from '../../../src/backtest/thread-pool.ts';
import { memoryLogger } from '../../../src/market-data/testing/fake-quote-source.ts';
import { pollUntil } from '../../helpers/poll-until.ts';
import { describeWithRedis, type RedisServer, startRedis } from '../../helpers/redis-server.ts';

const REPO = process.cwd();
const SAMPLE_DAY = join(REPO, 'backtests/data/sample-day');
/** Where the jobs say their spec is, inside this checkout (the file itself need not exist). */
const SPEC_PATH = 'backtests/queue-worker-test.yaml';

/** The ORB spec over the first hour and three quarters, plus the probe strategy. */
const SPEC_TEXT = readFileSync('backtests/opening-range-breakout.yaml', 'utf8')
  .replace('capital: 1000000', 'capital: 1000000\n  to: "2026-11-20T11:00:00+05:30"')
  .replace(
    'strategies:\n',
    'strategies:\n  - id: probe\n    module: ../test/fixtures/strategies/sweep-probe.ts\n',
  );

/** Polls `check` (real I/O) every 50 ms until it is true; fails past `ms`. */
const until = (what: string, check: () => Promise<boolean> | boolean, ms = 20_000) =>
  pollUntil(check, ms, what, 50);

describeWithRedis('QueueWorker (real redis-server)', () => {
  let redis: RedisServer;
  let connection: Redis;
  let queue: Queue<QueueJobData, QueueJobResult>;
  let files: DataFile[];
  /** This checkout's code version, as the worker is told it (the CLI computes it). */
  const version = '0.1.0+0123456789abcdef';
  const workers: QueueWorker[] = [];
  let jobs = 0;

  beforeAll(async () => {
    redis = await startRedis();
    connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    queue = new Queue(SWEEP_QUEUE_NAME, { connection, prefix: REDIS_PREFIX });
    files = (await publishData(SAMPLE_DAY, new RedisBlobStore(connection))).files;
  }, 30_000);

  afterEach(async () => {
    for (const w of workers.splice(0)) await w.stop(0);
  });

  afterAll(async () => {
    await queue?.close();
    connection?.disconnect();
    await redis?.stop();
  });

  /** A worker on the queue with its own cache, logging to a recorder. */
  function startWorker(name: string, more: Partial<Parameters<typeof QueueWorker.start>[0]> = {}) {
    const { lines, logger: log } = memoryLogger('info');
    const runLines: string[] = [];
    const worker = QueueWorker.start({
      connection,
      concurrency: 1,
      log,
      name,
      projectDir: REPO,
      cacheDir: mkdtempSync(join(tmpdir(), 'tr-qw-cache-')),
      blobs: new RedisBlobStore(connection),
      onRunLog: (text) => void runLines.push(text),
      runLogTTY: true,
      codeVersionOf: () => version,
      ...more,
    });
    workers.push(worker);
    return { worker, lines, runLines };
  }

  /** Adds a job built like the submitter's; resolves to it once it finished. */
  async function submit(params: QueueJobData['params'], more: Partial<QueueJobData> = {}) {
    const data: QueueJobData = {
      v: 1,
      index: jobs,
      spec: 'queue-worker-test',
      specText: SPEC_TEXT,
      specPath: SPEC_PATH,
      params,
      allowMissing: false,
      data: files,
      dataSource: 'redis',
      codeVersion: version,
      ...more,
    };
    jobs += 1;
    return queue.add('run', data, { jobId: `test-${jobs}`, attempts: 3 });
  }

  async function finished(job: Job): Promise<Job<QueueJobData, QueueJobResult>> {
    await until(`job ${job.id} to finish`, async () => {
      const state = await queue.getJobState(job.id ?? '');
      return state === 'completed' || state === 'failed';
    });
    return (await queue.getJob(job.id ?? '')) as Job<QueueJobData, QueueJobResult>;
  }

  it('runs a job on its thread pool: the local run’s summary, who ran it, one line each at start and end', async () => {
    const { worker, lines, runLines } = startWorker('test-host:1');
    const params = { 'orb.rangeMinutes': 15, 'probe.holdMs': 0 };
    const done = await finished(await submit(params));
    expect(await done.getState()).toBe('completed');
    const result = done.returnvalue;
    expect(result).toMatchObject({ ok: true, runner: 'test-host:1', jobId: done.id, params });
    // The same point run locally, from the spec file's text and the recording in place.
    const pool = new ThreadPool(1, () => {});
    try {
      const local = await pool.run({
        type: 'job',
        id: 0,
        specFile: join(REPO, SPEC_PATH),
        specText: SPEC_TEXT,
        dataDir: SAMPLE_DAY,
        params,
      });
      expect(result.ok && local.ok && result.summary).toEqual(local.ok && local.summary);
    } finally {
      await pool.close();
    }
    // BullMQ lists a worker under the queue's name; its own name ends its client name.
    expect((await queue.getWorkers()).map((w) => w.rawname)).toContainEqual(
      expect.stringMatching(new RegExp(`:w:${worker.name}$`)),
    );
    // The run's own lines (the sample day has no instruments.csv: a warning), labelled
    // with its run and pretty, as the worker's are.
    expect(runLines.join('')).toMatch(/^#0 orb\.rangeMinutes=15 probe\.holdMs=0 │ .*WARN/m);
    const started = lines.filter((l) => l.msg === 'job started');
    const ended = lines.filter((l) => l.msg === 'job finished');
    expect(started).toEqual([expect.objectContaining({ jobId: done.id, params, run: 0 })]);
    expect(ended).toEqual([
      expect.objectContaining({
        jobId: done.id,
        params,
        outcome: 'ok',
        elapsedMs: expect.any(Number),
      }),
    ]);
  });

  it('pins its data while a job runs and trims its cache to the budget after it', async () => {
    // The budget (1 byte) is below the one recording it fetched, but that recording was
    // used a moment ago and is kept; a stale recording from long ago is removed.
    const cacheDir = mkdtempSync(join(tmpdir(), 'tr-qw-cache-'));
    const stale = join(cacheDir, 'trees', 'f'.repeat(64));
    mkdirSync(stale, { recursive: true });
    writeFileSync(join(stale, 'quotes.bin'), 'x'.repeat(4096));
    const longAgo = new Date(Date.now() - 24 * 3_600_000);
    utimesSync(stale, longAgo, longAgo);
    const { lines } = startWorker('test-host:trim', { cacheDir, cacheMaxBytes: 1 });
    const done = await finished(await submit({ 'orb.rangeMinutes': 15, 'probe.holdMs': 0 }));
    expect(await done.getState()).toBe('completed');
    await until('the trim to be logged', () => lines.some((l) => l.msg === 'data cache trimmed'));
    // Checked to fail: without onJobEnded's trim, the stale tree stayed.
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(join(cacheDir, 'trees'))).toHaveLength(1);
    expect(readdirSync(join(cacheDir, 'pins'))).toEqual([]);
    expect(lines.find((l) => l.msg === 'data cache trimmed')).toMatchObject({
      removedRecordings: 1,
    });
  });

  it('a run that fails on its own is a result (ok: false), not a failed job', async () => {
    startWorker('test-host:2');
    const done = await finished(await submit({ 'probe.fail': true }));
    expect(await done.getState()).toBe('completed');
    expect(done.returnvalue).toMatchObject({
      ok: false,
      error: expect.stringMatching(/fails on purpose/),
    });
  });

  it('a thread that dies under a job throws: BullMQ retries it, the pool starts a new thread', async () => {
    const { lines } = startWorker('test-host:7');
    const specText = SPEC_TEXT.replace(
      'strategies:\n',
      'strategies:\n  - id: ex\n    module: ../test/fixtures/strategies/exits-thread.ts\n',
    );
    const crash = await submit({ 'ex.exit': true }, { specText });
    const done = await finished(crash);
    expect(await done.getState()).toBe('failed');
    expect(done.attemptsMade).toBe(3);
    expect(done.failedReason).toMatch(/sweep worker crashed: thread exited with code 7/);
    expect(lines.filter((l) => l.outcome === 'crashed (will retry)')).toHaveLength(3);
    // The worker goes on with the next job on a fresh thread.
    const next = await finished(await submit({ 'ex.exit': false }, { specText }));
    expect(next.returnvalue).toMatchObject({ ok: true });
  }, 60_000);

  /** Stops the test's workers, then removes its jobs (a handed-back job waits, delayed). */
  async function cleanUp(...ids: (string | undefined)[]) {
    for (const w of workers.splice(0)) await w.stop(0);
    for (const id of ids) await queue.remove(id ?? '');
  }

  it('hands a job from other code back (delayed, no attempt spent): another worker runs it; one loud line', async () => {
    const { lines } = startWorker('test-host:3');
    const other = '0.1.0+fedcba9876543210';
    const job = await submit({ 'probe.holdMs': 0 }, { codeVersion: other });
    await until('the hand-back', async () => (await queue.getJobState(job.id ?? '')) === 'delayed');
    expect((await queue.getJob(job.id ?? ''))?.attemptsMade).toBe(0);
    expect(lines.some((l) => l.msg === 'job started')).toBe(false);
    const loud = lines.filter((l) => String(l.msg).startsWith("cannot run the queue's jobs"));
    expect(loud).toEqual([expect.objectContaining({ level: 50, reason: 'code-version' })]);
    expect(String(loud[0]?.msg)).toMatch(
      new RegExp(
        `runs ${version.replace('+', '\\+')}, the queue's jobs want ${other.replace('+', '\\+')}: update`,
      ),
    );
    // A worker of the job's version takes it once the delay is over.
    startWorker('test-host:3b', { codeVersionOf: () => other });
    const done = await finished(job);
    expect(await done.getState()).toBe('completed');
    expect(done.returnvalue).toMatchObject({ ok: true, runner: 'test-host:3b' });
    await cleanUp(job.id);
  }, 30_000);

  it('a strategy missing from this checkout hands jobs back; 3 in a row pause the worker, which resumes', async () => {
    const { lines } = startWorker('test-host:8', {
      codeVersionOf: () => {
        throw new CodeVersionError('strategies/gone.ts: cannot read its strategies’ sources');
      },
      handBackPauseMs: 1_000,
    });
    const jobs = [
      await submit({ 'probe.holdMs': 0 }),
      await submit({ 'probe.holdMs': 1 }),
      await submit({ 'probe.holdMs': 2 }),
    ];
    await until('the pause', () => lines.some((l) => String(l.msg).startsWith('worker paused')));
    for (const job of jobs) {
      expect(await queue.getJobState(job.id ?? '')).toBe('delayed');
      expect((await queue.getJob(job.id ?? ''))?.attemptsMade).toBe(0);
    }
    expect(lines.filter((l) => l.level === 50).map((l) => l.reason)).toEqual([
      'strategy-missing',
      'strategy-missing',
    ]);
    expect(lines.find((l) => String(l.msg).startsWith('worker paused'))?.msg).toMatch(
      /cannot build the job's strategies.*update this checkout/,
    );
    // The pause ends by itself: the jobs, due again, are handed back again, and so paused again.
    const paused = () => lines.filter((l) => String(l.msg).startsWith('worker paused')).length;
    await until('a second pause', () => paused() === 2, 25_000);
    await cleanUp(...jobs.map((j) => j.id));
  }, 45_000);

  it('a --data-dir job on a worker without --data-dir: run from the blob store when it holds the files, else handed back', async () => {
    const { lines } = startWorker('test-host:9');
    const done = await finished(await submit({ 'probe.holdMs': 0 }, { dataSource: 'data-dir' }));
    expect(await done.getState()).toBe('completed');
    expect(done.returnvalue).toMatchObject({ ok: true });
    const missing = files.map((f, i) => (i === 0 ? { ...f, sha256: 'f'.repeat(64) } : f));
    const job = await submit({ 'probe.holdMs': 0 }, { dataSource: 'data-dir', data: missing });
    await until('the hand-back', async () => (await queue.getJobState(job.id ?? '')) === 'delayed');
    expect(lines.find((l) => l.reason === 'no-data-dir')?.msg).toMatch(
      /start this worker .*--data-dir/,
    );
    await cleanUp(job.id);
  }, 30_000);

  it('never runs a job on data whose digest does not match', async () => {
    // One data file's bytes altered in the blob store: its digest no longer matches.
    const file = files.find((f) => f.size > 0) as DataFile;
    const key = `${REDIS_PREFIX}:blob:${file.sha256}:0`;
    const original = await connection.getBuffer(key);
    expect(original).not.toBeNull();
    await connection.setrange(key, 0, original?.[0] === 0x41 ? 'B' : 'A');
    try {
      const { lines } = startWorker('test-host:4');
      const done = await finished(await submit({ 'probe.holdMs': 0 }));
      expect(await done.getState()).toBe('failed');
      expect(done.failedReason).toMatch(/not run on that data/);
      expect(done.attemptsMade).toBe(1);
      expect(lines.some((l) => l.msg === 'job started')).toBe(false);
    } finally {
      await connection.set(key, original as Buffer);
    }
  });

  it('stop lets a running job finish, then stops', async () => {
    const { worker, lines } = startWorker('test-host:5');
    const job = await submit({ 'probe.holdMs': 1500 });
    await until('the job to start', () => lines.some((l) => l.msg === 'job started'));
    expect(await worker.stop(15_000)).toBe('drained');
    expect(await queue.getJobState(job.id ?? '')).toBe('completed');
    expect(lines.at(-1)).toMatchObject({ msg: 'worker stopped', outcome: 'drained' });
  });

  it('past the drain, stop releases the running job to the queue at once', async () => {
    const { worker, lines } = startWorker('test-host:6');
    const job = await submit({ 'probe.holdMs': 60_000 });
    await until('the job to start', () => lines.some((l) => l.msg === 'job started'));
    const asked = Date.now();
    expect(await worker.stop(200)).toBe('released');
    expect(Date.now() - asked).toBeLessThan(5_000);
    // Waiting again for another worker, not failed, no attempt spent.
    expect(await queue.getJobState(job.id ?? '')).toBe('waiting');
    expect((await queue.getJob(job.id ?? ''))?.attemptsMade).toBe(0);
    await queue.remove(job.id ?? '');
  });
});
