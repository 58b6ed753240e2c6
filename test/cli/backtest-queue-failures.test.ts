import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Job, UnrecoverableError, Worker } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  type QueueJobData,
  type QueueJobResult,
  REDIS_PREFIX,
  SWEEP_QUEUE_NAME,
} from '../../src/backtest/queue/queue-protocol.ts';
import { describeWithRedis, type RedisServer, startRedis } from '../helpers/redis-server.ts';
import { runCli } from './run-cli.ts';

// Review 17, M4 (the submitter's part): runs the queue failed (here a worker refusing jobs
// for their code version) are summed up in one line and the sweep exits 1; a strategy's
// own failure is its result and does not count. The worker is an in-process BullMQ
// Worker with a trivial processor: what is tested is the submitter.

let redis: RedisServer;
let worker: Worker<QueueJobData, QueueJobResult> | undefined;

describeWithRedis('tiqs-runner backtest --sweep --queue: runs the queue failed', () => {
  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(async () => {
    await worker?.close();
    await redis?.stop();
  }, 30_000);

  it('says how many runs failed for queue reasons and exits 1', { timeout: 60_000 }, async () => {
    worker = new Worker<QueueJobData, QueueJobResult>(
      SWEEP_QUEUE_NAME,
      async (job: Job<QueueJobData>) => {
        if (job.data.index % 2 === 0)
          throw new UnrecoverableError('code version mismatch: submitted from A, this runs B');
        return {
          type: 'result',
          id: job.data.index,
          params: job.data.params,
          ok: false,
          error: 'strategy sma threw: boom',
          runner: 'test:1',
          jobId: job.id ?? '',
        };
      },
      {
        connection: { host: '127.0.0.1', port: redis.port, maxRetriesPerRequest: null },
        prefix: REDIS_PREFIX,
        name: 'test:1',
        concurrency: 4,
      },
    );
    const { code, stderr } = await runCli(
      'backtest',
      '--config',
      'backtests/sma-crossover.yaml',
      '--sweep',
      '--queue',
      redis.url,
      '--on-interrupt',
      'leave',
      '--out',
      mkdtempSync(join(tmpdir(), 'tr-sweep-queue-failures-')),
    );
    // Checked it can fail: with the exit code left at EXIT.ok, 0 (the state before M4).
    expect(code, stderr).toBe(1);
    expect(stderr).toMatch(
      /3 of 6 runs failed for queue reasons, not their strategy: 3 code version \(on test:1\)/,
    );
  });
});
