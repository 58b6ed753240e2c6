import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseBacktestSpec } from '../../src/backtest/backtest-spec.ts';
import { RedisBlobStore } from '../../src/backtest/queue/blob-store.ts';
import { publishData } from '../../src/backtest/queue/publish-data.ts';
import {
  type QueueJobData,
  type QueueJobResult,
  REDIS_PREFIX,
  SWEEP_QUEUE_NAME,
} from '../../src/backtest/queue/queue-protocol.ts';
import {
  type Child,
  killAll,
  REPO,
  spawnRunner,
  waitForExit,
} from '../e2e/helpers/child-process.ts';
import { pollUntil } from '../helpers/poll-until.ts';
import { describeWithRedis, type RedisServer, startRedis } from '../helpers/redis-server.ts';
import { runCli } from './run-cli.ts';

/** A JSON log line's fields (the worker logs JSON when not on a terminal). */
const parsed = (line: string): Record<string, unknown> => {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return {};
  }
};
const msg = (text: string | RegExp) => (line: string) => {
  const m = parsed(line).msg;
  return typeof m === 'string' && (typeof text === 'string' ? m === text : text.test(m));
};

/** Where the jobs say their spec is, inside this checkout (the file itself need not exist). */
const SPEC_PATH = 'backtests/worker-command-test.yaml';
/** The ORB spec's first hour and three quarters, beside the probe (holdMs: a long job). */
const SPEC_TEXT = readFileSync(join(REPO, 'backtests/opening-range-breakout.yaml'), 'utf8')
  .replace('capital: 1000000', 'capital: 1000000\n  to: "2026-11-20T11:00:00+05:30"')
  .replace(
    'strategies:\n',
    'strategies:\n  - id: probe\n    module: ../test/fixtures/strategies/sweep-probe.ts\n',
  );

describe('tiqs-runner worker: usage', () => {
  it.each([
    ['--queue', 'http://127.0.0.1:6379', /--queue: scheme http: is not redis: or rediss:/],
    ['--queue', 'redis://user:s3cret@127.0.0.1:6379/x', /--queue: database "x" is not a number/],
  ])('refuses %s %s as a usage error, the password masked', async (flag, url, why) => {
    const { code, stderr } = await runCli('worker', flag, url);
    expect(code).toBe(2);
    expect(stderr).toMatch(why);
    expect(stderr).not.toContain('s3cret');
  });

  it('refuses a --data-dir that is not a folder here', async () => {
    const { code, stderr } = await runCli(
      'worker',
      '--queue',
      'redis://127.0.0.1:1',
      '--data-dir',
      join(REPO, 'var', 'no-such-shared-folder'),
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/--data-dir .*no-such-shared-folder: no such folder here/);
  });

  it('needs --queue or $TIQS_QUEUE', async () => {
    const saved = process.env.TIQS_QUEUE;
    delete process.env.TIQS_QUEUE;
    try {
      const { code, stderr } = await runCli('worker');
      expect(code).toBe(2);
      expect(stderr).toMatch(/--queue URL \(or \$TIQS_QUEUE\) is required/);
    } finally {
      if (saved !== undefined) process.env.TIQS_QUEUE = saved;
    }
  });

  it('exits 4 (unavailable) at start when the queue’s Redis cannot be reached, the password masked', async () => {
    const { code, stderr } = await runCli('worker', '--queue', 'redis://:s3cret@127.0.0.1:1');
    expect(code).toBe(4);
    expect(stderr).toMatch(/redis:\/\/:\*\*\*@127\.0\.0\.1:1 cannot be reached \(.*ECONNREFUSED/);
    expect(stderr).not.toContain('s3cret');
  });

  it('refuses --concurrency 0', async () => {
    const { code, stderr } = await runCli(
      'worker',
      '--queue',
      'redis://127.0.0.1:1',
      '--concurrency',
      '0',
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/--concurrency must be a whole number, 1 or more/);
  });

  it.each(['0', '-1', 'lots'])('refuses --cache-max-gb %s', async (value) => {
    const { code, stderr } = await runCli(
      'worker',
      '--queue',
      'redis://127.0.0.1:1',
      '--cache-max-gb',
      value,
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/--cache-max-gb must be a number of GiB above 0/);
  });
});

describeWithRedis('tiqs-runner worker (child process, real redis-server)', () => {
  let redis: RedisServer;
  let connection: Redis;
  let queue: Queue<QueueJobData, QueueJobResult>;
  let job: (id: string, holdMs: number) => Promise<string>;
  beforeAll(async () => {
    redis = await startRedis();
    connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    queue = new Queue(SWEEP_QUEUE_NAME, { connection, prefix: REDIS_PREFIX });
    const { files } = await publishData(
      join(REPO, 'backtests/data/sample-day'),
      new RedisBlobStore(connection),
    );
    job = async (id, holdMs) => {
      // This checkout's version now, as the fresh child computes it: codeVersion memoises
      // the framework's digest per process, and helpers working beside the tests edit
      // src/ (in CI the tree is still, and this changes nothing).
      vi.resetModules();
      const { codeVersion } = await import('../../src/backtest/queue/code-version.ts');
      const version = await codeVersion(parseBacktestSpec(SPEC_TEXT, join(REPO, SPEC_PATH)));
      const params = { 'orb.rangeMinutes': 15, 'probe.holdMs': holdMs };
      const data: QueueJobData = {
        v: 1,
        index: 0,
        spec: 'worker-command-test',
        specText: SPEC_TEXT,
        specPath: SPEC_PATH,
        params,
        allowMissing: false,
        data: files,
        dataSource: 'redis',
        codeVersion: version,
      };
      await queue.add('run', data, { jobId: id });
      return id;
    };
  }, 30_000);
  afterEach(killAll);
  afterAll(async () => {
    await queue?.close();
    connection?.disconnect();
    await redis?.stop();
  });

  const startWorker = async () => {
    const child = spawnRunner(['worker', '--queue', redis.url, '--concurrency', '1']);
    const line = await child.waitForLine(msg(/^worker .* started$/), 15_000, 'the start line');
    return { child, started: parsed(line) };
  };

  /** Waits for the job's start line; a refusal (say, another code version) fails at once. */
  const jobStarted = async (child: Child) => {
    const line = await child.waitForLine(msg(/^job (started|failed)$/), 30_000, 'the job to start');
    const { msg: what, error } = parsed(line);
    expect(what, String(error)).toBe('job started');
  };

  it('starts, names itself host:pid, runs a job, and exits 0 on SIGTERM', async () => {
    const { child, started } = await startWorker();
    expect(started).toMatchObject({ queue: redis.url, pid: child.pid });
    expect(started.msg).toMatch(new RegExp(`^worker .+:${child.pid} started$`));
    const id = await job('cli-run', 0);
    await jobStarted(child);
    const done = parsed(await child.waitForLine(msg('job finished'), 30_000, 'the job'));
    expect(done).toMatchObject({ jobId: id, outcome: 'ok' });
    // The line is written before BullMQ moves the job to completed: wait for that (bounded).
    await pollUntil(
      async () => (await queue.getJobState(id)) === 'completed',
      5_000,
      'the job completed',
      50,
    );
    const result = (await queue.getJob(id))?.returnvalue;
    expect(result).toMatchObject({
      ok: true,
      jobId: id,
      runner: started.msg?.toString().split(' ')[1],
    });
    child.signal('SIGTERM');
    const exit = await waitForExit(child, 15_000);
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(child.lines.map(parsed).at(-1)).toMatchObject({
      msg: 'worker stopped',
      outcome: 'drained',
    });
  });

  it('SIGTERM lets the running job finish before exiting 0', async () => {
    const { child } = await startWorker();
    const id = await job('cli-drain', 3_000);
    await jobStarted(child);
    child.signal('SIGTERM');
    expect(await waitForExit(child, 30_000)).toMatchObject({ code: 0 });
    expect(await queue.getJobState(id)).toBe('completed');
  });

  it('a second signal releases the running job to the queue and exits 0 at once', async () => {
    const { child } = await startWorker();
    const id = await job('cli-force', 120_000);
    await jobStarted(child);
    child.signal('SIGTERM');
    await child.waitForLine(msg(/^worker stopping/), 10_000, 'the stop line');
    child.signal('SIGINT');
    const exit = await waitForExit(child, 15_000);
    expect(exit).toMatchObject({ code: 0 });
    expect(exit.ms).toBeLessThan(10_000);
    expect(await queue.getJobState(id)).toBe('waiting');
    await queue.remove(id);
  }, 60_000);

  it('reads the URL from $TIQS_QUEUE when --queue is absent (no password on argv)', async () => {
    const child = spawnRunner(['worker', '--concurrency', '1'], { TIQS_QUEUE: redis.url });
    const started = parsed(
      await child.waitForLine(msg(/^worker .* started$/), 15_000, 'the start line'),
    );
    expect(started).toMatchObject({ queue: redis.url, pid: child.pid });
    child.signal('SIGTERM');
    const exit = await waitForExit(child, 15_000);
    expect(exit, JSON.stringify(exit) + child.lines.join('\n') + child.stderr()).toMatchObject({
      code: 0,
    });
  });

  it('a wrong password: exit 4 at start, a redacted message, no crash dump with AUTH’s args', async () => {
    const guarded = await startRedis();
    try {
      const admin = new Redis(guarded.url);
      await admin.config('SET', 'requirepass', 'Hunter2Secret');
      admin.disconnect();
      const url = guarded.url.replace('redis://', 'redis://:WrongSecretPW@');
      const child = spawnRunner(['worker', '--concurrency', '1'], { TIQS_QUEUE: url });
      const exit = await waitForExit(child, 20_000);
      expect(exit).toMatchObject({ code: 4, signal: null });
      expect(child.stderr()).toMatch(
        /redis:\/\/:\*\*\*@127\.0\.0\.1:\d+ refused this worker's credentials \(WRONGPASS\)/,
      );
      expect(child.stderr() + child.lines.join('\n')).not.toMatch(
        /WrongSecretPW|Hunter2|ReplyError/,
      );
    } finally {
      await guarded.stop();
    }
  }, 40_000);

  it('rides out a Redis restart: one line when lost, one when back, still stops cleanly', async () => {
    const { child } = await startWorker();
    await redis.stop();
    await child.waitForLine(msg(/^redis connection lost/), 15_000, 'the loss line');
    await redis.restart();
    await child.waitForLine(msg('redis reconnected'), 20_000, 'the reconnect line');
    // The outage of a few seconds is one line, not one per retry.
    expect(child.lines.filter(msg(/^redis (connection lost|still unreachable)/))).toHaveLength(1);
    child.signal('SIGTERM');
    expect(await waitForExit(child, 15_000)).toMatchObject({ code: 0 });
  });
});
