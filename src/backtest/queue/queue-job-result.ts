import type { Job } from 'bullmq';
import type { SweepJob, SweepResult } from '../sweep-protocol.ts';
import type { QueueJobData, QueueJobResult } from './queue-protocol.ts';

/**
 * A queued run's result as the submitter records it: the run's {@link SweepResult} with
 * `id` = its grid index, plus the BullMQ job id and the worker that ran it (`host:pid`;
 * absent when a failed job never reached one).
 */
export type QueuedSweepResult = SweepResult & { readonly jobId: string; readonly runner?: string };

/** How a failed job's run error starts (see {@link queueFailureKind}). */
const FAILED_JOB = 'queue job failed after';
/** The error of a completed job without a result. */
const NO_RESULT = 'the queue job completed without a sweep result';

/** Whether a job's return value looks like a worker's {@link QueueJobResult}. */
function isJobResult(value: unknown): value is QueueJobResult {
  const v = value as Partial<QueueJobResult> | null | undefined;
  return typeof v === 'object' && v !== null && v.type === 'result' && typeof v.ok === 'boolean';
}

/**
 * The result of a job the queue holds as completed: the worker's result, its `id` and
 * `params` set to this submission's grid point (a job may have been queued by an earlier
 * submission of the same spec, whose grid order differed), its `jobId` and `runner`. A
 * completed job without a result (a foreign or broken value) is reported as a failure.
 */
export function completedResult(
  job: Job<QueueJobData, unknown>,
  point: SweepJob,
  jobId: string,
): QueuedSweepResult {
  const value = job.returnvalue;
  if (!isJobResult(value)) {
    return failure(point, jobId, NO_RESULT, job.processedBy);
  }
  const runner = value.runner ?? job.processedBy;
  // `worker` is a thread index on the runner's machine: meaningless across machines
  // (review 17, N7); `runner` says who ran it.
  const { worker: _thread, ...result } = value;
  return {
    ...result,
    id: point.id,
    params: point.params,
    jobId,
    ...(runner === undefined ? {} : { runner }),
  };
}

/**
 * The result of a job the queue holds as failed (every attempt used, or refused for good:
 * a code version mismatch, data whose digest does not match): a failed run with its
 * params and the queue's reason, ranked last like any failed run.
 */
export function failedResult(
  job: Job<QueueJobData, unknown>,
  point: SweepJob,
  jobId: string,
): QueuedSweepResult {
  const attempts = job.attemptsMade;
  const reason = job.failedReason || 'no reason given';
  return failure(
    point,
    jobId,
    `${FAILED_JOB} ${attempts} attempt${attempts === 1 ? '' : 's'}: ${reason}`,
    job.processedBy,
  );
}

function failure(
  point: SweepJob,
  jobId: string,
  error: string,
  runner: string | undefined,
): QueuedSweepResult {
  return {
    type: 'result',
    id: point.id,
    params: point.params,
    ok: false,
    error,
    jobId,
    ...(runner === undefined ? {} : { runner }),
  };
}

/** Why a queued run failed when the queue, not its strategy, failed it. */
export type QueueFailureKind = 'code version' | 'data' | 'stalled' | 'worker';

/**
 * Whether a queued run failed for a queue reason (its job failed in the queue: a code
 * version mismatch, data that could not be fetched or verified, stalled past the limit,
 * every attempt crashed, no result) and which; undefined for a completed job's own result,
 * a strategy's failure included.
 */
export function queueFailureKind(result: SweepResult): QueueFailureKind | undefined {
  if (result.ok || result.error === undefined) return undefined;
  const e = result.error;
  if (!e.startsWith(FAILED_JOB) && !e.startsWith(NO_RESULT)) return undefined;
  if (/code version/i.test(e)) return 'code version';
  if (/stalled/i.test(e)) return 'stalled';
  if (/digest|data|blob/i.test(e)) return 'data';
  return 'worker';
}
