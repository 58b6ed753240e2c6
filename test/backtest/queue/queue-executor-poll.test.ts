import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  QueueExecutor,
  QueueInterruptedError,
  type QueueProgress,
} from '../../../src/backtest/queue/queue-executor.ts';
import type { SweepJob } from '../../../src/backtest/sweep-protocol.ts';
import { describeWithRedis, type RedisServer, startRedis } from '../../helpers/redis-server.ts';

// Review 17, N8: the submitter's poll reads the unfinished jobs' states in one batch
// (a MULTI of ZMSCORE, LRANGE and EXISTS), not BullMQ's getJobState script once per job
// per poll. Counted from Redis's own command statistics, with no worker: every job stays
// waiting and every poll reads all of them.

const JOBS = 50;
let redis: RedisServer;

/** Calls of each command so far (`INFO commandstats`). */
async function commandCalls(url: string): Promise<Map<string, number>> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    const info = await client.info('commandstats');
    const calls = new Map<string, number>();
    for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm))
      calls.set(m[1] ?? '', Number(m[2]));
    return calls;
  } finally {
    client.disconnect();
  }
}

describeWithRedis('QueueExecutor poll cost (real redis-server)', () => {
  beforeAll(async () => {
    redis = await startRedis();
  }, 30_000);
  afterAll(() => redis?.stop(), 30_000);

  it('reads 50 unfinished jobs in one batch per poll, not one script per job', {
    timeout: 30_000,
  }, async () => {
    const interrupt = new AbortController();
    let polls = 0;
    const executor = new QueueExecutor({
      connection: { host: '127.0.0.1', port: redis.port, db: 0 },
      submission: {
        spec: 'poll-test',
        specText: 'backtest: {}\n',
        specPath: 'backtests/poll-test.yaml',
        data: [{ path: 'meta.json', size: 2, sha256: 'a'.repeat(64) }],
        dataSource: 'redis',
        codeVersion: '0.0.0+test',
      },
      pollMs: 20,
      signal: interrupt.signal,
      onProgress: (_p: QueueProgress) => {
        polls += 1;
        if (polls >= 20) interrupt.abort();
      },
    });
    const jobs: SweepJob[] = Array.from({ length: JOBS }, (_, id) => ({
      type: 'job',
      id,
      specFile: '/nowhere.yaml',
      params: { 's.x': id },
    }));
    try {
      await expect(async () => {
        for await (const _ of executor.run(jobs)) throw new Error('no job can finish');
      }).rejects.toBeInstanceOf(QueueInterruptedError);
    } finally {
      await executor.close();
    }
    const calls = await commandCalls(redis.url);
    expect(polls).toBeGreaterThanOrEqual(20);
    // ZSCORE (Redis 5 has it; ZMSCORE needs 6.2): two a job a poll, in the poll's one MULTI.
    expect(calls.get('zscore')).toBeGreaterThanOrEqual(2 * 20);
    // The submission reads each job's state once and adds it (a script each): about
    // 2 × 50. Checked it can fail: with getJobState per job per poll back in #check,
    // every poll added a script call per job and this failed.
    expect(calls.get('evalsha') ?? 0).toBeLessThan(4 * JOBS);
  });
});
