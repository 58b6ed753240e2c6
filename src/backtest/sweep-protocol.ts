import type { ParamOverrides } from './backtest-spec.ts';
import type { Summary } from './metrics.ts';

/**
 * One sweep job: a spec file and one point of its grid. Plain JSON, so the same message
 * goes to a worker process, a worker thread, or over a queue to another machine.
 */
export interface SweepJob {
  readonly type: 'job';
  readonly id: number;
  /**
   * Absolute path of the spec. With {@link SweepJob.specText}, the path the text is parsed
   * as (its relative paths resolve against this file's folder; the file need not exist).
   */
  readonly specFile: string;
  /**
   * The spec's text, parsed instead of reading `specFile`: a queued job carries the
   * submitter's spec, so every worker runs exactly what was submitted.
   */
  readonly specText?: string;
  /**
   * The recording folder to replay, instead of the spec's `backtest.data`: where a queue
   * worker materialised the job's data files (fetched and verified by digest).
   */
  readonly dataDir?: string;
  readonly params: ParamOverrides;
  /** Run on when strategies subscribe to tokens the data lacks (`--allow-missing`). */
  readonly allowMissing?: boolean;
  /** The parent prints log lines to a terminal: `logging.format: auto` is pretty then. */
  readonly logTTY?: boolean;
}

/**
 * A log line of a job's run, posted to the parent, which prints it (through its progress
 * bar, so the bar stays whole). Plain JSON.
 */
export interface SweepLog {
  readonly type: 'log';
  /** The job whose run wrote it: the parent labels the line with the job's params. */
  readonly id: number;
  readonly text: string;
}

/** A token the data lacks, with its symbol when the run's instrument master knows it. */
export interface SweepMissingToken {
  readonly token: number;
  readonly symbol?: string;
}

/** The answer to a {@link SweepJob}: its summary, or why it failed. Plain JSON. */
export type SweepResult =
  | {
      readonly type: 'result';
      readonly id: number;
      readonly params: ParamOverrides;
      readonly ok: true;
      readonly summary: Summary;
      readonly elapsedMs: number;
      /** Tokens its strategies subscribed that the data lacks (run with `allowMissing`). */
      readonly missing?: readonly SweepMissingToken[];
      /**
       * Which worker ran the job (the child's pid in the process pool, a thread id in the
       * thread pool), when the executor says.
       */
      readonly worker?: number;
    }
  | {
      readonly type: 'result';
      readonly id: number;
      readonly params: ParamOverrides;
      readonly ok: false;
      readonly error: string;
      /** Why, when it is a known refusal: `missing-data` (exit 3 from the CLI). */
      readonly reason?: 'missing-data';
      /** With `missing-data`: the tokens the data lacks. */
      readonly missing?: readonly SweepMissingToken[];
      readonly worker?: number;
    };

/**
 * Runs sweep jobs somewhere: local worker processes or threads
 * ({@link import('./pool-executor.ts')}), or a queue that workers on other machines
 * consume. The runner only needs this.
 */
export interface SweepExecutor {
  /** Runs every job and yields results as they finish, in any order. */
  run(jobs: readonly SweepJob[]): AsyncIterable<SweepResult>;
}
