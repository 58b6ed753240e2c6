import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import {
  type QueueJobResult,
  REDIS_PREFIX,
  SWEEP_QUEUE_NAME,
} from '../../src/backtest/queue/queue-protocol.ts';

/** What Redis holds about one sweep job. */
interface JobCensus {
  readonly id: string;
  /** BullMQ's state of the job now (`completed`, `failed`, `active`, `wait`…). */
  readonly state: string;
  /** The grid index from the job's data. */
  readonly index: number;
  /** Who completed it (`host:pid` from its return value), when it completed. */
  readonly runner?: string;
  readonly result?: QueueJobResult;
  readonly failedReason?: string;
  /** BullMQ's own counters on the job hash. */
  readonly attemptsStarted: number;
  readonly stalledCounter: number;
  /** How often the queue's event stream says it became active, stalled, completed, failed. */
  readonly events: { active: number; stalled: number; completed: number; failed: number };
}

/** Counts of a sweep's jobs, read from Redis itself (not from any process's output). */
export interface QueueCensus {
  /** Distinct job ids Redis holds, in any state. */
  readonly jobs: number;
  readonly completed: number;
  readonly failed: number;
  /** Jobs not yet completed or failed (waiting, active, delayed…). */
  readonly unfinished: number;
  /** `completed` events in the stream: one per job when nothing ran twice to completion. */
  readonly completions: number;
  /** Completions beyond the first of a job: must be 0. */
  readonly duplicates: number;
  /** `stalled` events in the stream: a job whose worker died was detected. */
  readonly stalls: number;
  readonly byId: ReadonlyMap<string, JobCensus>;
}

/** Counters of the blob store (`tiqs:blob:stats`), 0 when absent. */
export interface BlobStats {
  readonly uploads: number;
  readonly uploadBytes: number;
  readonly downloads: number;
  readonly downloadBytes: number;
}

type Counts = JobCensus['events'];

/** Per job id, how often each event appears in the queue's event stream (BullMQ XADDs them). */
async function eventCounts(redis: Redis): Promise<Map<string, Counts>> {
  const key = `${REDIS_PREFIX}:${SWEEP_QUEUE_NAME}:events`;
  const entries = await redis.xrange(key, '-', '+');
  const counts = new Map<string, Counts>();
  for (const [, fields] of entries) {
    const f = new Map<string, string>();
    for (let i = 0; i + 1 < fields.length; i += 2) f.set(fields[i] ?? '', fields[i + 1] ?? '');
    const id = f.get('jobId');
    const event = f.get('event');
    if (id === undefined || event === undefined) continue;
    const c = counts.get(id) ?? { active: 0, stalled: 0, completed: 0, failed: 0 };
    if (event === 'active' || event === 'stalled' || event === 'completed' || event === 'failed') {
      c[event] += 1;
    }
    counts.set(id, c);
  }
  return counts;
}

/**
 * Reads every sweep job Redis holds at `url` with its state and event counts: the e2e
 * tests' count of jobs, completions, duplicates and what is left.
 *
 * @example
 * ```ts
 * const c = await queueCensus(redis.url);
 * expect(c.duplicates).toBe(0);
 * ```
 */
export async function queueCensus(url: string): Promise<QueueCensus> {
  const redis = new Redis(url, { maxRetriesPerRequest: 3, lazyConnect: true });
  await redis.connect();
  const queue = new Queue(SWEEP_QUEUE_NAME, { connection: redis, prefix: REDIS_PREFIX });
  try {
    const jobs = await queue.getJobs([
      'completed',
      'failed',
      'active',
      'wait',
      'waiting',
      'delayed',
      'prioritized',
      'paused',
      'waiting-children',
    ]);
    const events = await eventCounts(redis);
    const byId = new Map<string, JobCensus>();
    for (const job of jobs) {
      const id = job.id ?? '';
      if (byId.has(id)) continue;
      const result = job.returnvalue as QueueJobResult | null | undefined;
      byId.set(id, {
        id,
        state: await queue.getJobState(id),
        index: (job.data as { index: number }).index,
        ...(result?.runner === undefined ? {} : { runner: result.runner, result }),
        ...(job.failedReason ? { failedReason: job.failedReason } : {}),
        attemptsStarted: job.attemptsStarted ?? 0,
        stalledCounter: job.stalledCounter ?? 0,
        events: events.get(id) ?? { active: 0, stalled: 0, completed: 0, failed: 0 },
      });
    }
    const all = [...byId.values()];
    const completions = all.reduce((n, j) => n + j.events.completed, 0);
    return {
      jobs: all.length,
      completed: all.filter((j) => j.state === 'completed').length,
      failed: all.filter((j) => j.state === 'failed').length,
      unfinished: all.filter((j) => j.state !== 'completed' && j.state !== 'failed').length,
      completions,
      duplicates: all.reduce((n, j) => n + Math.max(0, j.events.completed - 1), 0),
      stalls: all.reduce((n, j) => n + j.events.stalled, 0),
      byId,
    };
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/** The blob store's counters in the Redis at `url`. */
export async function blobStats(url: string): Promise<BlobStats> {
  const redis = new Redis(url, { maxRetriesPerRequest: 3 });
  try {
    const h = await redis.hgetall(`${REDIS_PREFIX}:blob:stats`);
    const n = (k: string): number => Number(h[k] ?? 0);
    return {
      uploads: n('uploads'),
      uploadBytes: n('uploadBytes'),
      downloads: n('downloads'),
      downloadBytes: n('downloadBytes'),
    };
  } finally {
    redis.disconnect();
  }
}
