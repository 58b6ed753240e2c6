import type { ParamOverrides } from '../backtest-spec.ts';
import type { SweepResult } from '../sweep-protocol.ts';

/** The BullMQ queue every submitter and worker of sweeps shares (one per Redis database). */
export const SWEEP_QUEUE_NAME = 'tiqs-sweep';

/** Key prefix of everything tiqs-runner keeps in Redis: BullMQ's queues and the blob store. */
export const REDIS_PREFIX = 'tiqs';

/** One file of a backtest's recording, as a job names it. */
export interface DataFile {
  /** Path inside the recording folder, `/`-separated (`meta.json`, `day-1/quotes.bin.gz`). */
  readonly path: string;
  /** Bytes. */
  readonly size: number;
  /** Lower-case hex sha256 of the file's bytes: its key in the blob store and the caches. */
  readonly sha256: string;
}

/**
 * Where a job's data files are: published to the blob store in the queue's Redis, or
 * copied into a shared folder (`--data-dir`) that the workers mount too.
 */
export type DataSource = 'redis' | 'data-dir';

/**
 * The data of one queued sweep job: everything a worker on another machine needs beside
 * its checkout of the project. Plain JSON.
 */
export interface QueueJobData {
  readonly v: 1;
  /** The point's index in the spec's grid: the result's `id`, as in a local sweep. */
  readonly index: number;
  /** The spec's name (its file name without extension), for log lines. */
  readonly spec: string;
  /** The spec file's text, exactly as the submitter read it (part of the job id). */
  readonly specText: string;
  /**
   * The spec's path relative to the project root (the folder of the nearest
   * `package.json` above it), `/`-separated: the worker parses `specText` as if it were
   * that file of its own checkout, so the strategies' relative paths resolve there.
   */
  readonly specPath: string;
  readonly params: ParamOverrides;
  readonly allowMissing: boolean;
  /** The recording folder's files (the spec's `backtest.data`), sorted by path. */
  readonly data: readonly DataFile[];
  readonly dataSource: DataSource;
  /**
   * The submitter's code version (package version + digest of the framework's and the
   * spec's strategies' source files). A worker whose own differs refuses the job.
   */
  readonly codeVersion: string;
}

/** What a worker returns for a job: the run's result plus who ran it. Plain JSON. */
export type QueueJobResult = SweepResult & {
  /** The worker process that ran it (`host:pid`), and its job id. */
  readonly runner: string;
  readonly jobId: string;
};
