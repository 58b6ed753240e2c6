import { resolve } from 'node:path';
import { DelayedError, type Job, UnrecoverableError, WaitingError } from 'bullmq';
import type { Logger } from 'pino';
import { untilAborted } from '../../execution/until-aborted.ts';
import { type BacktestSpec, parseBacktestSpec } from '../backtest-spec.ts';
import { labelSweepLog } from '../sweep-log-label.ts';
import type { SweepResult } from '../sweep-protocol.ts';
import type { ThreadPool } from '../thread-pool.ts';
import { CodeVersionError } from './code-version.ts';
import {
  DataDigestError,
  DataPathError,
  type DataStore,
  fetchData,
  treeDigest,
} from './fetch-data.ts';
import type { QueueJobData, QueueJobResult } from './queue-protocol.ts';
import { pinCacheData } from './sweep-cache-trim.ts';
import { HandBackError } from './worker-hand-back.ts';

/** How long a handed-back job waits before any worker may take it again. */
const HAND_BACK_DELAY_MS = 5_000;

/** What the queue worker's processor needs. */
export interface QueueWorkerJobDeps {
  readonly pool: ThreadPool;
  /** This checkout's project root: a job's `specPath` is relative to it. */
  readonly projectDir: string;
  /** Where fetched blobs and materialised recordings are cached. */
  readonly cacheDir: string;
  /** The blob store in the queue's Redis (jobs with `dataSource: 'redis'`). */
  readonly blobs: DataStore;
  /** The shared folder given with `--data-dir` (jobs with `dataSource: 'data-dir'`). */
  readonly dataDir?: DataStore;
  /** This worker process (`host:pid`): the result's `runner`. */
  readonly runner: string;
  readonly log: Logger;
  /** Where the runs' own log lines go (labelled with their run), default stdout. */
  readonly onRunLog?: (text: string) => void;
  /** The worker logs for people: the runs' `logging.format: auto` is pretty too. */
  readonly runLogTTY?: boolean;
  /**
   * This checkout's code version for a job's spec (the CLI passes `codeVersion` of
   * code-version.ts): a job submitted from another version is refused.
   */
  readonly codeVersionOf: (spec: BacktestSpec) => Promise<string> | string;
  /** A job was handed back ({@link HandBackError}): log and count it (WorkerHandBacks). */
  readonly onHandBack?: (err: HandBackError, jobId: string) => void;
  /** A job started running here (the hand-backs in a row end). */
  readonly onJobRan?: () => void;
  /** A job's run ended (its data unpinned): the cache may be trimmed now. */
  readonly onJobEnded?: () => void;
}

/**
 * The queue worker's processor: checks that the job was submitted from the same code as
 * this checkout (else, or when this checkout lacks the job's strategy files or its shared
 * data folder, the job is HANDED BACK: delayed a few seconds for another worker, no
 * attempt spent, since it is this worker that is wrong, not the job), fetches its data by
 * digest (a digest mismatch fails it for good: nothing runs on wrong data), runs it on
 * the thread pool and returns a {@link QueueJobResult}. A run that failed on its own (a
 * strategy threw) is a result with `ok: false`; a thread that died throws, so BullMQ
 * retries the job. When the worker cancels it (a forced stop), the job goes back to
 * wait at once for another worker, instead of waiting for the stall check.
 */
export function queueWorkerJob(deps: QueueWorkerJobDeps) {
  const onRunLog = deps.onRunLog ?? ((text: string) => void process.stdout.write(text));
  return async (
    job: Job<QueueJobData, QueueJobResult>,
    token?: string,
    signal?: AbortSignal,
  ): Promise<QueueJobResult> => {
    const data = job.data;
    const jobId = job.id ?? '?';
    if (data?.v !== 1)
      throw new UnrecoverableError(`job ${jobId}: unknown job format (v ${String(data?.v)})`);
    const what = { jobId, spec: data.spec, run: data.index, params: data.params };
    const started = performance.now();
    const work = async (): Promise<QueueJobResult> => {
      const specFile = resolve(deps.projectDir, data.specPath);
      const spec = parseSpec(data, specFile, jobId);
      const mine = await versionOf(spec, data, deps);
      if (mine !== data.codeVersion)
        throw new HandBackError(
          'code-version',
          data.codeVersion,
          `code version mismatch: this checkout (${deps.runner}) runs ${mine}, the queue's jobs want ${data.codeVersion}: update this checkout to the submitter's (git pull; npm run build) and restart the worker`,
        );
      // Pinned from before the fetch to the run's end: a cache trim leaves it alone.
      const pin = await pinCacheData(
        deps.cacheDir,
        treeDigest(data.data),
        data.data.map((f) => f.sha256),
      ).catch((err: unknown) => {
        // A full disk fails the pin: a trim is what may free it.
        deps.onJobEnded?.();
        throw err;
      });
      try {
        const dataDir = await fetchJobData(data, deps, jobId);
        deps.onJobRan?.();
        deps.log.info(what, 'job started');
        const result = await deps.pool.run(
          {
            type: 'job',
            id: data.index,
            specFile,
            specText: data.specText,
            dataDir,
            params: data.params,
            ...(data.allowMissing ? { allowMissing: true } : {}),
            ...(deps.runLogTTY === true ? { logTTY: true } : {}),
          },
          (text, id) => onRunLog(labelSweepLog(text, id, data.params)),
        );
        return { ...result, runner: deps.runner, jobId };
      } finally {
        await pin.release();
        deps.onJobEnded?.();
      }
    };
    try {
      const result = await untilCancelled(work(), signal);
      deps.log.info(
        { ...what, elapsedMs: elapsed(started), outcome: outcomeOf(result) },
        'job finished',
      );
      return result;
    } catch (err) {
      if (err instanceof HandBackError) {
        deps.onHandBack?.(err, jobId);
        // Lock lost meanwhile: the job is no longer ours; the stall check has it.
        await job.moveToDelayed(Date.now() + HAND_BACK_DELAY_MS, token).catch(() => undefined);
        throw new DelayedError();
      }
      if (err instanceof JobCancelled) {
        // Back to wait for another worker now; WaitingError tells BullMQ it moved.
        await job.moveToWait(token).catch(() => undefined);
        deps.log.warn({ ...what, elapsedMs: elapsed(started) }, 'job released to the queue');
        throw new WaitingError();
      }
      const error = err instanceof Error ? err.message : String(err);
      const outcome = err instanceof UnrecoverableError ? 'refused' : 'crashed (will retry)';
      deps.log.error({ ...what, elapsedMs: elapsed(started), outcome, error }, 'job failed');
      throw err;
    }
  };
}

/** The job's spec text parsed as its path in this checkout; a bad spec fails for good. */
function parseSpec(data: QueueJobData, specFile: string, jobId: string): BacktestSpec {
  try {
    return parseBacktestSpec(data.specText, specFile);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    throw new UnrecoverableError(`job ${jobId}: its spec does not load here: ${why}`);
  }
}

/** This checkout's code version for the job; its strategy files missing here hand it back. */
async function versionOf(
  spec: BacktestSpec,
  data: QueueJobData,
  deps: QueueWorkerJobDeps,
): Promise<string> {
  try {
    return await deps.codeVersionOf(spec);
  } catch (err) {
    if (!(err instanceof CodeVersionError)) throw err;
    throw new HandBackError(
      'strategy-missing',
      data.codeVersion,
      `this checkout (${deps.runner}) cannot build the job's strategies (${err.message}); the queue's jobs want ${data.codeVersion}: update this checkout to the submitter's and restart the worker`,
    );
  }
}

/**
 * Where the job's data comes from: the shared folder it names, else (this worker has no
 * --data-dir) the blob store when it holds every file, else the job is handed back.
 */
async function storeFor(data: QueueJobData, deps: QueueWorkerJobDeps): Promise<DataStore> {
  if (data.dataSource !== 'data-dir') return deps.blobs;
  if (deps.dataDir !== undefined) return deps.dataDir;
  const held = await Promise.all(data.data.map((f) => deps.blobs.has(f.sha256)));
  if (held.every(Boolean)) return deps.blobs;
  throw new HandBackError(
    'no-data-dir',
    '--data-dir',
    `the jobs' data is in a shared folder (--data-dir on the submitter) and not in the queue's blob store; start this worker (${deps.runner}) with --data-dir too`,
  );
}

/** The job's recording, fetched and verified into the cache; a digest mismatch fails for good. */
async function fetchJobData(
  data: QueueJobData,
  deps: QueueWorkerJobDeps,
  jobId: string,
): Promise<string> {
  const store = await storeFor(data, deps);
  try {
    return await fetchData(data.data, store, deps.cacheDir);
  } catch (err) {
    // Wrong bytes or a path out of the folder: no retry makes them right. A blob missing
    // (Redis lost it, say) is retried: a rerun of the submitter publishes it again.
    if (err instanceof DataDigestError || err instanceof DataPathError)
      throw new UnrecoverableError(`job ${jobId}: ${err.message}; not run on that data`);
    throw err;
  }
}

/** The worker cancelled the job (forced stop): it is released, not failed. */
class JobCancelled extends Error {
  override readonly name = 'JobCancelled';
}

/** `work`, or {@link JobCancelled} as soon as `signal` aborts (the work is left to the pool's close). */
async function untilCancelled<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  const r = await untilAborted(work, signal);
  if (!r.done) throw new JobCancelled('cancelled');
  return r.value;
}

const elapsed = (started: number): number => Math.round(performance.now() - started);

/** The log's word for a result. */
function outcomeOf(result: SweepResult): string {
  if (result.ok) return 'ok';
  return result.reason === 'missing-data' ? 'failed: missing data' : `failed: ${result.error}`;
}
