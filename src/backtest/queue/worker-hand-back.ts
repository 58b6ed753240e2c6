import type { Logger } from 'pino';

/**
 * Why a worker cannot run a job because of ITS OWN state, not the job's: its checkout runs
 * other code than the job was submitted from, the job's data is in a shared folder this
 * worker was not given (and not in the blob store either), or the job's strategy sources
 * are missing from this checkout. Another worker may well run the job.
 */
export type HandBackReason = 'code-version' | 'no-data-dir' | 'strategy-missing';

/**
 * Thrown by the job processor for a job this worker cannot run ({@link HandBackReason}):
 * the job goes back to the queue, no attempt spent, instead of failing for the whole fleet.
 */
export class HandBackError extends Error {
  override name = 'HandBackError';

  /**
   * @param reason why this worker cannot run it
   * @param wanted what the job needs (its code version; a shared folder), for the log's key
   * @param message what to do about it, for people
   */
  constructor(
    readonly reason: HandBackReason,
    readonly wanted: string,
    message: string,
  ) {
    super(message);
  }
}

/** Hand-backs in a row (no job run between them) before the worker pauses. */
const DEFAULT_IN_A_ROW = 3;
/** How long the worker takes no job after that many. */
const DEFAULT_PAUSE_MS = 60_000;

/**
 * The worker's account of the jobs it handed back. Each (reason, wanted) is logged as an
 * error once (a stale checkout meets hundreds of jobs: one line says it); after `inARow`
 * hand-backs with no job run between them the worker pauses for `pauseMs` (`pause` is
 * called) and says so again, so a stale worker stops taking jobs from the fleet but comes
 * back by itself when the queue holds jobs it can run (an up-to-date fleet would not be
 * stopped by an abandoned submission's leftover jobs, as an exit would).
 */
export class WorkerHandBacks {
  private readonly said = new Set<string>();
  private inRow = 0;

  /**
   * @param log where the lines go
   * @param pause stops taking jobs for `ms` (the worker resumes by itself)
   * @param inARow hand-backs in a row before a pause
   * @param pauseMs how long a pause lasts
   */
  constructor(
    private readonly log: Logger,
    private readonly pause: (ms: number) => void,
    private readonly inARow = DEFAULT_IN_A_ROW,
    private readonly pauseMs = DEFAULT_PAUSE_MS,
  ) {}

  /** A job was handed back: logged once per (reason, wanted), counted. */
  handedBack(err: HandBackError, jobId: string): void {
    const key = `${err.reason}\0${err.wanted}`;
    if (!this.said.has(key)) {
      this.said.add(key);
      this.log.error(
        { reason: err.reason, jobId },
        `cannot run the queue's jobs: ${err.message} (jobs handed back to the queue, not failed)`,
      );
    } else this.log.debug({ reason: err.reason, jobId }, 'job handed back');
    this.inRow += 1;
    if (this.inRow < this.inARow) return;
    this.inRow = 0;
    this.log.error(
      {
        reason: err.reason,
        handedBack: this.inARow,
        pauseSeconds: Math.round(this.pauseMs / 1000),
      },
      `worker paused: ${err.message}`,
    );
    this.pause(this.pauseMs);
  }

  /** A job ran here: the count in a row starts again. */
  ran(): void {
    this.inRow = 0;
  }
}
