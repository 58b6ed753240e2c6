import { hostname } from 'node:os';
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ThreadPool } from '../thread-pool.ts';
import { CacheTrimmer } from './cache-trimmer.ts';
import {
  type QueueJobData,
  type QueueJobResult,
  REDIS_PREFIX,
  SWEEP_QUEUE_NAME,
} from './queue-protocol.ts';
import { type QueueWorkerJobDeps, queueWorkerJob } from './queue-worker-job.ts';
import { RedisHeartbeat } from './redis-heartbeat.ts';
import { WorkerHandBacks } from './worker-hand-back.ts';
import { WorkerReconnectLog } from './worker-reconnect-log.ts';

/** How long a forced stop waits for running jobs to be released to the queue. */
const RELEASE_MS = 5_000;
/**
 * Stalls a job may live through before it fails for good: 2, so a job survives two
 * worker deaths (or two Redis hangs past the lock), as its 3 attempts survive two crashes.
 * BullMQ's default (1) fails it at the second.
 */
const DEFAULT_MAX_STALLED = 2;

/** Options of {@link QueueWorker.start}. */
export interface QueueWorkerOptions
  extends Omit<
    QueueWorkerJobDeps,
    'pool' | 'runner' | 'log' | 'onHandBack' | 'onJobRan' | 'onJobEnded'
  > {
  /**
   * The queue's Redis (ioredis, `maxRetriesPerRequest: null` as BullMQ's workers need):
   * BullMQ duplicates it for its blocking reads; the worker does not close it.
   */
  readonly connection: Redis;
  /** Jobs at once: the thread pool's size. */
  readonly concurrency: number;
  readonly log: Logger;
  /** The worker's name in the queue (`queue.getWorkers()`) and in results; default `host:pid`. */
  readonly name?: string;
  /** BullMQ's `lockDuration` (ms): a dead worker's job is stalled after it; default BullMQ's 30 s. */
  readonly lockMs?: number;
  /** BullMQ's `stalledInterval` (ms) between stall checks; default BullMQ's 30 s. */
  readonly stalledMs?: number;
  /** BullMQ's `maxStalledCount`: stalls a job lives through; default {@link DEFAULT_MAX_STALLED}. */
  readonly maxStalled?: number;
  /** Between two PINGs of the liveness check (ms); default 10 s, with a 5 s timeout. */
  readonly pingMs?: number;
  /** How long the worker takes no job after 3 hand-backs in a row (ms); default 60 s. */
  readonly handBackPauseMs?: number;
  /**
   * The data cache's budget (bytes): past it, after a job, the recordings used longest
   * ago are removed from `cacheDir` (never one a job uses). Default {@link DEFAULT_CACHE_MAX_BYTES}.
   */
  readonly cacheMaxBytes?: number;
}

/** The data cache's default budget: 20 GiB. */
const DEFAULT_CACHE_MAX_BYTES = 20 * 2 ** 30;

/** How a stop ended: jobs finished, jobs released to the queue, or left for the stall check. */
export type QueueWorkerStop = 'drained' | 'released' | 'abandoned';

/**
 * A sweep worker on the queue: a BullMQ {@link Worker} on {@link SWEEP_QUEUE_NAME} that
 * runs each job on a persistent {@link ThreadPool} (one job a thread, `concurrency`
 * threads), logs each job, and rides out Redis outages (ioredis reconnects; the lines
 * about it are bounded in rate). {@link stop} lets running jobs finish, then releases
 * what is left back to the queue.
 *
 * @example
 * ```ts
 * const worker = QueueWorker.start({ connection, concurrency: 4, log, projectDir, cacheDir, blobs });
 * process.once('SIGTERM', () => void worker.stop(60_000));
 * ```
 */
export class QueueWorker {
  private forceNow: (() => void) | undefined;
  private forced = false;
  private stopping: Promise<QueueWorkerStop> | undefined;
  private resumeTimer: NodeJS.Timeout | undefined;

  private constructor(
    readonly name: string,
    private readonly worker: Worker<QueueJobData, QueueJobResult>,
    private readonly pool: ThreadPool,
    private readonly log: Logger,
    private readonly heartbeat: RedisHeartbeat,
  ) {}

  /** Takes no job for `ms` (a stale checkout's worker), then takes them again. */
  private pauseFor(ms: number): void {
    if (this.stopping !== undefined || this.resumeTimer !== undefined) return;
    void this.worker.pause(true).catch(() => undefined);
    this.resumeTimer = setTimeout(() => {
      this.resumeTimer = undefined;
      if (this.stopping === undefined) this.worker.resume();
    }, ms);
    this.resumeTimer.unref();
  }

  /** Starts taking jobs. */
  static start(options: QueueWorkerOptions): QueueWorker {
    const name = options.name ?? `${hostname()}:${process.pid}`;
    const log = options.log;
    const pool = new ThreadPool(options.concurrency);
    // The QueueWorker exists only after BullMQ's Worker, which needs the processor: the
    // hand-backs' pause reaches it through this reference.
    let self: QueueWorker | undefined;
    const handBacks = new WorkerHandBacks(
      log,
      (ms) => self?.pauseFor(ms),
      undefined,
      options.handBackPauseMs,
    );
    const trimmer = new CacheTrimmer(
      options.cacheDir,
      options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES,
      log,
    );
    const processor = queueWorkerJob({
      ...options,
      pool,
      runner: name,
      log,
      onHandBack: (err, jobId) => handBacks.handedBack(err, jobId),
      onJobRan: () => handBacks.ran(),
      onJobEnded: () => void trimmer.soon(),
    });
    const worker = new Worker<QueueJobData, QueueJobResult>(SWEEP_QUEUE_NAME, processor, {
      connection: options.connection,
      prefix: REDIS_PREFIX,
      name,
      concurrency: options.concurrency,
      ...(options.lockMs === undefined ? {} : { lockDuration: options.lockMs }),
      ...(options.stalledMs === undefined ? {} : { stalledInterval: options.stalledMs }),
      maxStalledCount: options.maxStalled ?? DEFAULT_MAX_STALLED,
    });
    const reconnects = new WorkerReconnectLog(log);
    // BullMQ reports failed commands as 'error' events (an unheard one would crash us):
    // those of an outage go to the bounded reconnect log, others (a lost lock) are logged.
    worker.on('error', (err) => {
      if (reconnects.down || isConnectionError(err)) reconnects.lost(err);
      else log.warn({ error: err.message }, 'queue error');
    });
    options.connection.on('error', (err: Error) => reconnects.lost(err));
    options.connection.on('ready', () => reconnects.back());
    // A hung Redis raises no error: a PING with a timeout reports it like a refused one.
    const heartbeat = new RedisHeartbeat(options.connection, reconnects, options.pingMs);
    heartbeat.start();
    log.debug({ worker: name, concurrency: options.concurrency }, 'worker waiting for jobs');
    self = new QueueWorker(name, worker, pool, log, heartbeat);
    return self;
  }

  /** Jobs running now. */
  get running(): number {
    return this.pool.busy;
  }

  /**
   * Stops: takes no new job, lets the running ones finish for up to `drainMs`, then (or
   * at once after {@link force}) cancels them, which moves each back to wait for another
   * worker. Past a few more seconds (Redis unreachable, say) it gives up: jobs still
   * active are recovered by another worker's stall check. Always resolves, bounded.
   */
  stop(drainMs: number): Promise<QueueWorkerStop> {
    this.stopping ??= this.stopNow(drainMs);
    return this.stopping;
  }

  /** Cuts a {@link stop}'s drain short (a second signal). */
  force(): void {
    this.forced = true;
    this.forceNow?.();
  }

  private async stopNow(drainMs: number): Promise<QueueWorkerStop> {
    clearTimeout(this.resumeTimer);
    this.heartbeat.stop();
    const running = this.running;
    this.log.info(
      { running, drainSeconds: Math.round(drainMs / 1000) },
      running === 0 ? 'worker stopping' : 'worker stopping: finishing the running jobs',
    );
    const closing = this.worker.close().then(() => 'closed' as const);
    closing.catch(() => undefined);
    const drained = await Promise.race([
      closing,
      after(drainMs, 'timeout' as const),
      new Promise<'timeout'>((resolve) => {
        this.forceNow = () => resolve('timeout');
        if (this.forced) resolve('timeout');
      }),
    ]).catch(() => 'timeout' as const);
    let outcome: QueueWorkerStop = 'drained';
    if (drained !== 'closed') {
      this.log.warn({ running: this.running }, 'worker stopping now: releasing the running jobs');
      this.worker.cancelAllJobs('worker stopping');
      const released = await Promise.race([closing, after(RELEASE_MS, 'timeout' as const)]).catch(
        () => 'timeout' as const,
      );
      outcome = released === 'closed' ? 'released' : 'abandoned';
    }
    await this.pool.close();
    this.log.info({ outcome }, 'worker stopped');
    return outcome;
  }
}

/** Network error codes of a Redis connection going away (Node's and ioredis's words). */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
]);

/** Whether an error is the connection's (an outage), not a command's. */
function isConnectionError(err: Error & { code?: unknown }): boolean {
  return (
    (typeof err.code === 'string' && CONNECTION_CODES.has(err.code)) ||
    /Connection is closed|connect E|Stream isn't writeable|Socket closed/i.test(err.message)
  );
}

/** Resolves with `value` after `ms`, without holding the process open. */
function after<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(resolve, ms, value).unref());
}
