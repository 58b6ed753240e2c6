import { type Job, Queue, QueueEvents } from 'bullmq';
import type { ChainableCommander } from 'ioredis';
import { untilAborted } from '../../execution/until-aborted.ts';
import type { SweepExecutor, SweepJob, SweepResult } from '../sweep-protocol.ts';
import { sweepJobId } from './job-id.ts';
import { completedResult, failedResult, type QueuedSweepResult } from './queue-job-result.ts';
import {
  type DataFile,
  type DataSource,
  type QueueJobData,
  REDIS_PREFIX,
  SWEEP_QUEUE_NAME,
} from './queue-protocol.ts';
import { QueueWatch } from './queue-watch.ts';
import { type QueueConnection, reconnectDelay } from './redis-url.ts';

/** What every job of one submission shares: the spec, its data and the code version. */
export interface QueueSubmission {
  /** The spec's name, for the workers' log lines. */
  readonly spec: string;
  readonly specText: string;
  /** The spec's path from the project root, `/`-separated. */
  readonly specPath: string;
  readonly data: readonly DataFile[];
  readonly dataSource: DataSource;
  readonly codeVersion: string;
}

/** What a submission found in the queue before it added its jobs. */
export interface QueueSubmitted {
  readonly jobs: number;
  /** Completed already (an earlier submission's): read, not run again. */
  readonly alreadyDone: number;
  /** Failed in an earlier submission: queued again with fresh attempts. */
  readonly retried: number;
  /** Waiting or running already (an earlier submission's): reattached. */
  readonly attached: number;
}

/** The submission's jobs as the queue holds them now. */
export interface QueueProgress {
  readonly total: number;
  /** Results recorded (each job once), failures included. */
  readonly done: number;
  /** Of `done`, the failed runs and failed jobs. */
  readonly failed: number;
  /** Running on a worker now. */
  readonly active: number;
  /** Workers connected to the queue now (`host:pid`). */
  readonly workers: readonly string[];
}

/** Options of {@link QueueExecutor}. */
export interface QueueExecutorOptions {
  /** The queue's Redis (`parseQueueUrl`): BullMQ makes its own connections from it. */
  readonly connection: QueueConnection;
  readonly submission: QueueSubmission;
  /** Attempts per job when a worker crashes or stalls (default 3, exponential backoff). */
  readonly attempts?: number;
  /** How often every unfinished job's state is read, events or not (default 1000 ms). */
  readonly pollMs?: number;
  onSubmitted?(submitted: QueueSubmitted): void;
  onProgress?(progress: QueueProgress): void;
  /** Aborting stops the wait: {@link QueueExecutor.run} throws {@link QueueInterruptedError}. */
  readonly signal?: AbortSignal;
}

/** The wait for results was interrupted (Ctrl-C); the jobs stay queued unless removed. */
export class QueueInterruptedError extends Error {
  override name = 'QueueInterruptedError';
}

/** How long closing the queue's connections may take (Redis may be down). */
const CLOSE_MS = 5_000;
/** Jobs added per round trip. */
const ADD_BATCH = 200;

/**
 * Runs a sweep on the BullMQ queue that `tiqs-runner worker` processes consume: one job
 * per grid point, its id a digest of (spec, params, data, code version), so a submission
 * run again adds nothing that exists, reads the results of jobs completed already and
 * reattaches to the others. Results are read from the jobs themselves: QueueEvents wake
 * the wait as jobs finish, and a bounded poll of every unfinished job's state catches
 * what an event missed (a Redis restart, a lost connection), so the wait never hangs on
 * an event. Each job's result is yielded once.
 *
 * @example
 * ```ts
 * const executor = new QueueExecutor({ connection, submission });
 * try { await runSweep(spec, { executor, out }); } finally { await executor.close(); }
 * ```
 */
export class QueueExecutor implements SweepExecutor {
  readonly #queue: Queue<QueueJobData>;
  readonly #events: QueueEvents;
  readonly #options: QueueExecutorOptions;
  /** This submission's job ids not yet recorded, with their grid points. */
  readonly #pending = new Map<string, SweepJob>();
  /** The last state read of each pending job (for the running count). */
  readonly #states = new Map<string, string>();
  #workerNames: string[] = [];
  #submitted = false;
  readonly #watch: QueueWatch;

  constructor(options: QueueExecutorOptions) {
    this.#options = options;
    // Reconnect within 2 s of Redis coming back (BullMQ's default backs off to 20 s).
    const connection = { ...options.connection, retryStrategy: reconnectDelay };
    const common = { connection, prefix: REDIS_PREFIX };
    this.#queue = new Queue<QueueJobData>(SWEEP_QUEUE_NAME, common);
    this.#events = new QueueEvents(SWEEP_QUEUE_NAME, common);
    this.#watch = new QueueWatch(options.pollMs ?? 1_000);
    // Errors are connection trouble that ioredis rides out; an unheard 'error' would crash.
    this.#queue.on('error', () => undefined);
    this.#events.on('error', () => undefined);
    for (const event of ['completed', 'failed', 'active'] as const) {
      this.#events.on(event, ({ jobId }: { jobId: string }) => {
        if (this.#pending.has(jobId)) this.#watch.nudge(jobId);
      });
    }
  }

  /** The BullMQ job id of a grid point of this submission. */
  jobIdOf(point: SweepJob): string {
    const s = this.#options.submission;
    return sweepJobId({
      specText: s.specText,
      params: point.params,
      data: s.data,
      codeVersion: s.codeVersion,
    });
  }

  async *run(jobs: readonly SweepJob[]): AsyncIterable<SweepResult> {
    for (const point of jobs) this.#pending.set(this.jobIdOf(point), point);
    const total = this.#pending.size;
    // Interrupted while the data was published: nothing is queued.
    if (this.#options.signal?.aborted === true)
      throw new QueueInterruptedError('the sweep was interrupted before its jobs were queued');
    // From here on some jobs may be queued: a Ctrl-C has something to leave or remove.
    this.#submitted = true;
    const submitted = await this.#unlessAborted(this.#submit([...this.#pending]));
    this.#options.onSubmitted?.(submitted);
    let done = 0;
    let failed = 0;
    let woke: readonly string[] | 'poll' = 'poll';
    while (this.#pending.size > 0) {
      // Redis down: a read waits for the reconnect (tens of seconds); Ctrl-C must not.
      const ids = woke === 'poll' ? [...this.#pending.keys()] : woke;
      const results = await this.#unlessAborted(this.#check(ids));
      for (const result of results) {
        done += 1;
        if (!result.ok) failed += 1;
        yield result;
      }
      // The worker list (CLIENT LIST) on the poll's beat only, not on every event.
      if (woke === 'poll') this.#workerNames = await this.#unlessAborted(this.#workers());
      const active = [...this.#states.values()].filter((s) => s === 'active').length;
      this.#options.onProgress?.({ total, done, failed, active, workers: this.#workerNames });
      if (this.#pending.size === 0) break;
      const next = await this.#watch.wait(this.#options.signal);
      if (next === 'aborted') throw new QueueInterruptedError('the sweep was interrupted');
      woke = next;
    }
  }

  /** Whether the jobs were queued (a Ctrl-C during the data's upload queues none). */
  get submitted(): boolean {
    return this.#submitted;
  }

  /** Job ids of this submission whose results are not recorded yet. */
  get unfinished(): readonly string[] {
    return [...this.#pending.keys()];
  }

  /**
   * Removes this submission's unfinished jobs that no worker holds (waiting, delayed);
   * running ones cannot be removed: they finish, and their results wait in the queue
   * for a rerun. A job id another submission of the same spec shares goes too.
   */
  async removeUnfinished(): Promise<{ removed: number; running: number }> {
    let removed = 0;
    let running = 0;
    const ids = [...this.#pending.keys()];
    const states = await this.#statesOf(ids);
    for (const [i, id] of ids.entries()) {
      const state = states[i];
      if (state === 'completed' || state === 'failed' || state === 'unknown') continue;
      if (state !== 'active' && (await this.#queue.remove(id)) === 1) removed += 1;
      else running += 1;
    }
    return { removed, running };
  }

  /**
   * Closes the queue's connections, bounded: with Redis unreachable BullMQ's close waits
   * for a connection that never comes, so past {@link CLOSE_MS} this resolves `'stuck'`
   * and the caller, whose process those clients keep alive, exits on its own.
   */
  async close(): Promise<'closed' | 'stuck'> {
    this.#watch.close();
    const closing = Promise.allSettled([this.#queue.close(), this.#events.close()]);
    const timer = new Promise<'stuck'>((resolve) => setTimeout(resolve, CLOSE_MS, 'stuck').unref());
    return (await Promise.race([closing, timer])) === 'stuck' ? 'stuck' : 'closed';
  }

  /** `work`, or {@link QueueInterruptedError} as soon as the signal aborts (work left behind). */
  async #unlessAborted<T>(work: Promise<T>): Promise<T> {
    const signal = this.#options.signal;
    if (signal === undefined) return work;
    const r = await untilAborted(work, signal);
    if (!r.done) throw new QueueInterruptedError('the sweep was interrupted');
    return r.value;
  }

  /** Adds the jobs the queue lacks; counts those completed, failed or queued already. */
  async #submit(entries: readonly (readonly [string, SweepJob])[]): Promise<QueueSubmitted> {
    // One MULTI for all, not BullMQ's getJobState script per job (a grid of hundreds).
    const states = await this.#statesOf(entries.map(([id]) => id));
    let alreadyDone = 0;
    let retried = 0;
    let attached = 0;
    const missing: (readonly [string, SweepJob])[] = [];
    for (const [i, entry] of entries.entries()) {
      const state = states[i];
      if (state === 'completed') alreadyDone += 1;
      else if (state === 'unknown') missing.push(entry);
      else if (state === 'failed') {
        // Rerunning a submission is how a user says "try the failed ones again".
        const job = await this.#queue.getJob(entry[0]);
        await job?.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
        retried += 1;
      } else attached += 1;
    }
    await this.#add(missing);
    return { jobs: entries.length, alreadyDone, retried, attached };
  }

  /** Adds jobs by id; BullMQ ignores an id it holds already, so a race adds nothing twice. */
  async #add(entries: readonly (readonly [string, SweepJob])[]): Promise<void> {
    const s = this.#options.submission;
    const opts = {
      attempts: this.#options.attempts ?? 3,
      backoff: { type: 'exponential', delay: 1_000 },
      removeOnComplete: false,
      removeOnFail: false,
    } as const;
    for (let i = 0; i < entries.length; i += ADD_BATCH) {
      await this.#queue.addBulk(
        entries.slice(i, i + ADD_BATCH).map(([jobId, point]) => ({
          name: `${s.spec}#${point.id}`,
          data: {
            v: 1,
            index: point.id,
            spec: s.spec,
            specText: s.specText,
            specPath: s.specPath,
            params: point.params,
            allowMissing: point.allowMissing === true,
            data: s.data,
            dataSource: s.dataSource,
            codeVersion: s.codeVersion,
          },
          opts: { ...opts, jobId },
        })),
      );
    }
  }

  /**
   * Reads the states of `ids`: the finished ones' results (each recorded once: taken out
   * of the pending set), and how many of the pending jobs run now. A job the queue lost
   * (removed, or Redis restarted without its data) is added again. Redis errors count as
   * "nothing new": the next poll tries again.
   */
  async #check(ids: readonly string[]): Promise<QueuedSweepResult[]> {
    const results: QueuedSweepResult[] = [];
    const lost: (readonly [string, SweepJob])[] = [];
    try {
      const wanted = ids.filter((id) => this.#pending.has(id));
      const states = await this.#statesOf(wanted);
      for (const [i, id] of wanted.entries()) {
        const point = this.#pending.get(id);
        const state = states[i];
        if (point === undefined || state === undefined) continue;
        this.#states.set(id, state);
        if (state === 'unknown') lost.push([id, point]);
        if (state !== 'completed' && state !== 'failed') continue;
        const job = (await this.#queue.getJob(id)) as Job<QueueJobData, unknown> | undefined;
        if (job === undefined || !this.#pending.delete(id)) continue;
        this.#states.delete(id);
        results.push(
          state === 'completed' ? completedResult(job, point, id) : failedResult(job, point, id),
        );
      }
      await this.#add(lost);
    } catch (err) {
      // A command this Redis does not know never heals: say so instead of polling for ever.
      if (err instanceof Error && /^ERR unknown command/i.test(err.message)) {
        throw new Error(`the queue's Redis refused the submitter's poll: ${err.message}`, {
          cause: err,
        });
      }
      // Redis unreachable or restarting: what was read stands; the next poll goes on.
    }
    return results;
  }

  /**
   * The states of `ids` as far as the poll needs them (`completed`, `failed`, `active`,
   * `unknown` for a job the queue lost, else `waiting`), read in one MULTI: the active
   * list, then per job a ZSCORE on each finished set and an EXISTS, instead of BullMQ's
   * getJobState (a script that walks every set) per job per second (review 17, N8).
   * ZSCORE, not ZMSCORE: that needs Redis 6.2, and BullMQ runs on 5.
   */
  async #statesOf(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const q = this.#queue;
    const client = await q.client;
    // BullMQ types its client's MULTI narrowly; it is ioredis's.
    const multi = client.multi() as unknown as ChainableCommander;
    multi.lrange(q.toKey('active'), 0, -1);
    for (const id of ids) {
      multi.zscore(q.toKey('completed'), id);
      multi.zscore(q.toKey('failed'), id);
      multi.exists(q.toKey(id));
    }
    const replies = (await multi.exec()) ?? [];
    const failedReply = replies.find(([err]) => err !== null);
    if (failedReply !== undefined) throw failedReply[0];
    const value = (i: number): unknown => replies[i]?.[1];
    const active = new Set(value(0) as string[]);
    return ids.map((id, i) => {
      const at = 1 + 3 * i;
      if (value(at) !== null) return 'completed';
      if (value(at + 1) !== null) return 'failed';
      if (active.has(id)) return 'active';
      return value(at + 2) === 1 ? 'waiting' : 'unknown';
    });
  }

  /** The workers connected now; on a Redis error the last list read (Redis, not the workers, is what went). */
  async #workers(): Promise<string[]> {
    try {
      // BullMQ lists connections named `<prefix>:<queue>:w:<worker name>`; a worker
      // holds more than one, so names are counted once. CLIENT LIST spans every database
      // of the server: only workers on this queue's database take its jobs.
      const db = String(this.#options.connection.db ?? 0);
      const list = await this.#queue.getWorkers();
      const names = list
        .filter((w) => w.db === undefined || w.db === db)
        .map((w) => (w.rawname ?? '').split(':w:')[1] ?? 'unnamed');
      return [...new Set(names)].sort();
    } catch {
      return this.#workerNames;
    }
  }
}
