import type { Job } from 'bullmq';
import type { SweepJob, SweepResult } from '../sweep-protocol.ts';
import type { QueueJobData, QueueJobResult } from './queue-protocol.ts';

/**
 * A queued run's result as the submitter records it: the run's {@link SweepResult} with
 * `id` = its grid index, plus the BullMQ job id and the worker that ran it (`host:pid`;
 * absent when a failed job never reached one).
 */
export type QueuedSweepResult = SweepResult & { readonly jobId: string; readonly runner?: string };

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
    return failure(point, jobId, 'the queue job completed without a sweep result', job.processedBy);
  }
  const runner = value.runner ?? job.processedBy;
  return {
    ...value,
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
    `queue job failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${reason}`,
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
