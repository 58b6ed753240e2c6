import { Bisection } from './bisection.ts';
import { HeldTokens } from './held-tokens.ts';
import { type IsolationJob, IsolationRequests } from './isolation-requests.ts';
import type { PollBatch } from './poll-plan.ts';
import type { RejectIsolatorHost } from './reject-isolator-host.ts';
import { isContentRejection, isSessionRefusal } from './rejection.ts';

/**
 * Finds and sets aside the tokens the service rejects, so that one bad token does not
 * blind a whole batch. A batch refused for its content (see `isContentRejection`) is
 * handed over; its tokens are *held* (left out of the poll plan) while the isolator
 * works out which of them is to blame:
 *
 * - tokens the refusal names are each asked for alone in the next budget slots (set
 *   aside if refused again), and the rest go back to the plan, so they are polled again
 *   in the very next cycle; a message whose numbers turn out not to be the culprits
 *   makes the isolator bisect from then on;
 * - otherwise the batch is bisected: each half is probed, a half that is accepted goes
 *   back (with its quotes), a refused half is split again, down to single tokens.
 *
 * Set-aside tokens are asked for alone every `retryMs` and come back once accepted.
 * Every probe and retry takes a send time from the shared budget, and only a couple are
 * reserved at once ({@link IsolationRequests}), so isolation never bursts past the limit
 * and never crowds the regular polls out.
 *
 * Suspects are not known to be bad, so they are never kept from the plan for long: a
 * probe that fails for a reason that says nothing about its tokens (5xx, network, a
 * stalled answer, abandoned after `probeTimeoutMs`) releases them to the plan at once.
 * If the culprit is among them, the next regular poll is refused again and isolation
 * restarts. As every probe or retry out frees its slot within its send time plus
 * `probeTimeoutMs`, a part waiting for a slot waits about that long at most.
 *
 * The parts: {@link HeldTokens} (held and set-aside tokens), {@link Bisection} (the
 * parts still to probe and what was learnt), {@link IsolationRequests} (requests out);
 * this facade decides what goes out next and routes the answers.
 *
 * @example
 * ```ts
 * const isolator = new RejectIsolator(host);
 * if (isContentRejection(err)) isolator.rejected(batch, err);
 * planQuotePolls(demands, 50, isolator.held);
 * ```
 */
export class RejectIsolator {
  private readonly heldTokens: HeldTokens;
  private readonly bisection: Bisection;
  private readonly requests: IsolationRequests;

  constructor(private readonly host: RejectIsolatorHost) {
    this.heldTokens = new HeldTokens(host);
    this.bisection = new Bisection(host, this.heldTokens);
    this.requests = new IsolationRequests(host, {
      accepted: (job, batch, data) => this.accepted(job, batch, data),
      refused: (job, error) => this.refused(job, error),
    });
  }

  /** Tokens left out of the plan: set aside, or in a batch being bisected. */
  get held(): ReadonlySet<number> {
    return this.heldTokens.tokens;
  }

  /** Tokens set aside, ascending. */
  setAside(): number[] {
    return this.heldTokens.setAside();
  }

  /** Whether the token is set aside. */
  isSetAside(token: number): boolean {
    return this.heldTokens.isSetAside(token);
  }

  /** A regular poll of `batch` was refused for its content: find the culprit(s). */
  rejected(batch: PollBatch, error: unknown): void {
    const tokens = batch.tokens.filter((t) => !this.heldTokens.has(t));
    if (tokens.length === 0) return;
    this.bisection.blame(tokens, error, this.host.clock.now());
    this.host.onHeldChanged();
    this.pump();
  }

  /** Nobody wants the token any more: forget it. */
  forget(token: number): void {
    // Queued parts of a bisection drop it lazily, when they are sent.
    this.heldTokens.forget(token);
  }

  /** Starts due probes and retries (called on every heartbeat of the poll loops). */
  tick(): void {
    this.pump();
  }

  /** Abandons requests in flight (pause, close); their work is queued again. */
  stop(): void {
    const now = this.host.clock.now();
    for (const group of this.requests.stop()) this.bisection.requeue(group, now);
  }

  /** Drops all state (bus closed). */
  clear(): void {
    this.stop();
    this.bisection.clear();
    this.heldTokens.clear();
  }

  private pump(): void {
    const now = this.host.clock.now();
    while (this.requests.hasRoom && this.host.active(now)) {
      const job = this.nextJob(now);
      if (job === undefined) return;
      this.requests.launch(job, now);
    }
  }

  /** Parts of a bisection first, then set-aside tokens due to be asked for alone. */
  private nextJob(now: number): IsolationJob | undefined {
    const group = this.bisection.next(now);
    if (group !== undefined) return { kind: 'probe', group };
    const token = this.heldTokens.nextRetry(now, (t) => this.requests.isRetrying(t));
    return token === undefined ? undefined : { kind: 'retry', token };
  }

  private accepted(job: IsolationJob, batch: PollBatch, data: readonly unknown[]): void {
    const now = this.host.clock.now();
    for (const t of batch.tokens) this.heldTokens.accepted(t, now);
    this.host.onAnswer(batch, data, now);
    this.host.onHeldChanged();
    if (job.kind === 'probe') {
      this.bisection.partDone(job.group.root);
      this.pump();
    }
  }

  private refused(job: IsolationJob, error: unknown): void {
    const now = this.host.clock.now();
    if (isContentRejection(error)) {
      if (job.kind === 'probe') {
        this.bisection.blame(job.group.tokens, error, now, job.group.root);
        this.host.onHeldChanged();
      } else {
        this.heldTokens.setAsideFor(job.token, error, now);
      }
    } else if (isSessionRefusal(error)) {
      if (job.kind === 'probe') this.bisection.requeue(job.group, now);
      this.host.onSessionRefused(error);
      return;
    } else if (job.kind === 'probe') {
      // Says nothing about the tokens (5xx, network, stalled): they were only suspects.
      this.bisection.release(job.group);
    } else {
      this.heldTokens.retryLater(job.token, now);
    }
    this.pump();
  }
}
