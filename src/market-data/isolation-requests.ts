import { from, Subscription, switchMap, take, timeout, timer } from 'rxjs';
import type { Group } from './bisection.ts';
import type { PollBatch } from './poll-plan.ts';
import type { RejectIsolatorHost } from './reject-isolator-host.ts';

/** A probe of a part of a refused batch, or a set-aside token asked for alone. */
export type IsolationJob = { kind: 'probe'; group: Group } | { kind: 'retry'; token: number };

/** What {@link IsolationRequests} needs of the isolator's host. */
export type IsolationRequestsHost = Pick<
  RejectIsolatorHost,
  'clock' | 'budget' | 'probeTimeoutMs' | 'modeFor' | 'fetch'
>;

/** Where the answer to a job goes. */
export interface IsolationOutcome {
  accepted(job: IsolationJob, batch: PollBatch, data: readonly unknown[]): void;
  refused(job: IsolationJob, error: unknown): void;
}

/** At most this many probes and retries reserved or in flight at once, per kind. */
const MAX_IN_FLIGHT = 2;

/**
 * The isolator's requests out: each takes a send time from the shared budget, is
 * abandoned (and aborted) after `probeTimeoutMs` without an answer, and at most
 * {@link MAX_IN_FLIGHT} are reserved or in flight at once, so isolation never bursts past
 * the limit and never crowds the regular polls out.
 *
 * @example
 * ```ts
 * const requests = new IsolationRequests(host, { accepted, refused });
 * if (requests.hasRoom) requests.launch({ kind: 'retry', token: 101 }, clock.now());
 * ```
 */
export class IsolationRequests {
  private readonly inFlight = new Map<Subscription, IsolationJob>();
  private readonly retrying = new Set<number>();

  constructor(
    private readonly host: IsolationRequestsHost,
    private readonly outcome: IsolationOutcome,
  ) {}

  /** Whether another job may be reserved now. */
  get hasRoom(): boolean {
    return this.inFlight.size < MAX_IN_FLIGHT;
  }

  /** Whether the token's solo retry is out. */
  isRetrying(token: number): boolean {
    return this.retrying.has(token);
  }

  /** Reserves a send time for the job and sends it then; its answer goes to the outcome. */
  launch(job: IsolationJob, now: number): void {
    const { clock, budget } = this.host;
    const tokens = job.kind === 'probe' ? job.group.tokens : [job.token];
    if (job.kind === 'retry') this.retrying.add(job.token);
    const batch: PollBatch = { mode: this.host.modeFor(tokens), tokens };
    const controller = new AbortController();
    const at = budget.reserve(now);
    let answered = false;
    const sub = new Subscription(() => controller.abort());
    this.inFlight.set(sub, job);
    const done = (): boolean => {
      if (!this.inFlight.delete(sub)) return false;
      if (job.kind === 'retry') this.retrying.delete(job.token);
      // Aborts a request given up on (time-out), so it does not linger at the service.
      sub.unsubscribe();
      return true;
    };
    sub.add(
      timer(at - now, clock.scheduler)
        .pipe(
          switchMap(() =>
            from(this.host.fetch(batch, controller.signal)).pipe(
              take(1),
              timeout({ first: this.host.probeTimeoutMs, scheduler: clock.scheduler }),
            ),
          ),
        )
        .subscribe({
          next: (data) => {
            answered = true;
            if (done()) this.outcome.accepted(job, batch, data);
          },
          error: (error: unknown) => {
            if (done()) this.outcome.refused(job, error);
          },
          complete: () => {
            if (!answered && done()) this.outcome.refused(job, new Error('no answer'));
          },
        }),
    );
  }

  /**
   * Abandons every job out (pause, close) without an outcome, and returns the parts
   * whose probes were abandoned, in the order they were launched.
   */
  stop(): Group[] {
    const abandoned: Group[] = [];
    for (const [sub, job] of [...this.inFlight]) {
      this.inFlight.delete(sub);
      sub.unsubscribe();
      if (job.kind === 'probe') abandoned.push(job.group);
      else this.retrying.delete(job.token);
    }
    return abandoned;
  }
}
