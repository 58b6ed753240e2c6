import type { Logger } from 'pino';
import { from, type ObservableInput, Subscription, switchMap, take, timeout, timer } from 'rxjs';
import { SessionError } from '../api/errors/session-error.ts';
import type { Clock } from '../clock/clock.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import type { PollBatch } from './poll-plan.ts';
import { isContentRejection, tokensNamedIn } from './rejection.ts';
import type { RequestBudget } from './request-budget.ts';

/** The bus side of a {@link RejectIsolator}. */
export interface RejectIsolatorHost {
  readonly clock: Clock;
  readonly logger: Logger;
  /** The budget the probes share with the poll loops of the same kind. */
  readonly budget: RequestBudget;
  /**
   * A probe or solo retry without an answer after this long is abandoned: about one
   * poll interval, well under a regular poll's time-out, so suspects never wait out a
   * stalled request away from the plan.
   */
  readonly probeTimeoutMs: number;
  /** A set-aside token is asked for alone this often. */
  readonly retryMs: number;
  /** A solo retry that failed for a reason that says nothing about its token is due again after this. */
  readonly transientRetryMs: number;
  /** Whether anyone still wants the token. */
  wanted(token: number): boolean;
  /** Mode to ask for these tokens in now (undefined for greeks). */
  modeFor(tokens: readonly number[]): QuoteMode | undefined;
  /** Whether requests may go out now (session gate open, bus not paused). */
  active(now: number): boolean;
  fetch(batch: PollBatch, signal: AbortSignal): ObservableInput<readonly unknown[]>;
  onAnswer(batch: PollBatch, data: readonly unknown[], receivedAt: number): void;
  /** The service refused the session: the host pauses (and stops this isolator). */
  onSessionRefused(error: unknown): void;
  /** The set of held tokens changed: the plan must be made again. */
  onHeldChanged(): void;
  onSetAside(token: number, reason: string, at: number): void;
  onRestored(token: number, at: number): void;
}

/** A refused batch being bisected: did any of its parts turn out to be to blame? */
interface Root {
  readonly size: number;
  /** Split by the tokens the refusal named (rather than in halves). */
  readonly byName: boolean;
  /** Parts still to be probed. */
  pending: number;
  blamed: boolean;
  /** A part was released unjudged (5xx, time-out): no conclusion may be drawn. */
  inconclusive: boolean;
  /** Tokens of it set aside so far. */
  setAside: number;
}

interface Group {
  readonly tokens: readonly number[];
  readonly notBefore: number;
  readonly root: Root;
}

interface Aside {
  readonly since: number;
  retryAt: number;
  reason: string;
}

type Job = { kind: 'probe'; group: Group } | { kind: 'retry'; token: number };

/** At most this many probes and retries reserved or in flight at once, per kind. */
const MAX_IN_FLIGHT = 2;

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
 * Every probe and retry takes a send time from the shared budget, and at most
 * {@link MAX_IN_FLIGHT} are reserved at once, so isolation never bursts past the limit
 * and never crowds the regular polls out.
 *
 * Suspects are not known to be bad, so they are never kept from the plan for long: a
 * probe that fails for a reason that says nothing about its tokens (5xx, network, a
 * stalled answer, abandoned after `probeTimeoutMs`) releases them to the plan at once.
 * If the culprit is among them, the next regular poll is refused again and isolation
 * restarts. As every probe or retry out frees its slot within its send time plus
 * `probeTimeoutMs`, a part waiting for a slot waits about that long at most.
 *
 * @example
 * ```ts
 * const isolator = new RejectIsolator(host);
 * if (isContentRejection(err)) isolator.rejected(batch, err);
 * planQuotePolls(demands, 50, isolator.held);
 * ```
 */
export class RejectIsolator {
  private readonly queue: Group[] = [];
  private readonly aside = new Map<number, Aside>();
  private readonly heldTokens = new Set<number>();
  private readonly inFlight = new Map<Subscription, Job>();
  private readonly retrying = new Set<number>();
  private noCulpritWarned = false;
  /** Cleared once a refusal named tokens that were then accepted alone. */
  private trustNames = true;

  constructor(private readonly host: RejectIsolatorHost) {}

  /** Tokens left out of the plan: set aside, or in a batch being bisected. */
  get held(): ReadonlySet<number> {
    return this.heldTokens;
  }

  /** Tokens set aside, ascending. */
  setAside(): number[] {
    return [...this.aside.keys()].sort((a, b) => a - b);
  }

  /** Whether the token is set aside. */
  isSetAside(token: number): boolean {
    return this.aside.has(token);
  }

  /** A regular poll of `batch` was refused for its content: find the culprit(s). */
  rejected(batch: PollBatch, error: unknown): void {
    const tokens = batch.tokens.filter((t) => !this.heldTokens.has(t));
    if (tokens.length === 0) return;
    this.blame(tokens, error, this.host.clock.now());
    this.host.onHeldChanged();
    this.pump();
  }

  /** Nobody wants the token any more: forget it. */
  forget(token: number): void {
    if (!this.heldTokens.delete(token)) return;
    this.aside.delete(token);
    // Queued groups drop it lazily, when they are sent.
  }

  /** Starts due probes and retries (called on every heartbeat of the poll loops). */
  tick(): void {
    this.pump();
  }

  /** Abandons requests in flight (pause, close); their work is queued again. */
  stop(): void {
    const now = this.host.clock.now();
    for (const [sub, job] of [...this.inFlight]) {
      this.inFlight.delete(sub);
      sub.unsubscribe();
      if (job.kind === 'probe') this.queue.unshift({ ...job.group, notBefore: now });
      else this.retrying.delete(job.token);
    }
  }

  /** Drops all state (bus closed). */
  clear(): void {
    this.stop();
    this.queue.length = 0;
    this.aside.clear();
    this.heldTokens.clear();
  }

  /**
   * `tokens` (all held or about to be) were refused together at `now`: a regular batch
   * (no `root`) or a part of one being bisected. A lone token is to blame; otherwise the
   * tokens the refusal names are each checked alone (a number in the message may be
   * something else: "at most 100 tokens") while the rest go back to the plan, and
   * without names the batch is split in halves.
   */
  private blame(asked: readonly number[], error: unknown, now: number, root?: Root): void {
    // Tokens whose last subscriber left while the request was out are nobody's concern.
    const tokens = asked.filter((t) => this.host.wanted(t));
    if (tokens.length === 0) {
      if (root !== undefined) this.partDone(root);
      return;
    }
    if (tokens.length === 1) {
      this.putAside(tokens[0] as number, `rejected by the service: ${describe(error)}`, now);
      if (root !== undefined) {
        root.blamed = true;
        root.setAside += 1;
        this.partDone(root);
      }
      return;
    }
    const named = this.trustNames ? tokensNamedIn(error, tokens) : [];
    const mid = Math.ceil(tokens.length / 2);
    const parts =
      named.length > 0 ? named.map((t) => [t]) : [tokens.slice(0, mid), tokens.slice(mid)];
    for (const t of tokens) {
      // Unnamed tokens of a named refusal go straight back to the plan; if one of them
      // is bad too, its next regular poll says so.
      if (named.length > 0 && !named.includes(t)) this.heldTokens.delete(t);
      else this.heldTokens.add(t);
    }
    const r = root ?? {
      size: tokens.length,
      byName: named.length > 0,
      pending: 1,
      blamed: false,
      inconclusive: false,
      setAside: 0,
    };
    r.pending += parts.length - 1;
    for (const part of parts) this.queue.push({ tokens: part, notBefore: now, root: r });
  }

  /**
   * Suspects of a part that could not be judged go back to the plan at once: they are
   * not known to be bad, and a regular poll that is refused again restarts isolation.
   */
  private release(group: Group): void {
    for (const t of group.tokens) if (!this.aside.has(t)) this.heldTokens.delete(t);
    group.root.inconclusive = true;
    this.partDone(group.root);
    this.host.onHeldChanged();
  }

  /** One part of a bisection is settled; a batch whose every part passed blames nobody. */
  private partDone(root: Root): void {
    root.pending -= 1;
    if (root.pending > 0) return;
    if (root.inconclusive) return;
    if (root.setAside === root.size && root.size > 2) {
      // Every token refused on its own: more likely the service or the config than them.
      this.host.logger.warn(
        { tokens: root.size },
        'the service refused every token of a batch, each alone too: check the base URL ' +
          'and the instrument tokens; they are retried alone now and then',
      );
    }
    if (root.blamed) return;
    if (root.byName) {
      // The numbers in the message were not the culprits: from now on, bisect.
      this.trustNames = false;
      this.host.logger.info('a refusal named tokens the service then accepted: bisecting instead');
      return;
    }
    if (this.noCulpritWarned) return;
    this.noCulpritWarned = true;
    this.host.logger.warn(
      { tokens: root.size },
      'the service refused a batch but accepted each of its parts: no token is to blame ' +
        '(is batchSize above what the service accepts per request?)',
    );
  }

  private putAside(token: number, reason: string, now: number): void {
    this.heldTokens.add(token);
    const known = this.aside.get(token);
    if (known !== undefined) {
      known.retryAt = now + this.host.retryMs;
      known.reason = reason;
      return;
    }
    this.aside.set(token, { since: now, retryAt: now + this.host.retryMs, reason });
    this.host.logger.warn(
      { token, reason, retryAloneEverySeconds: this.host.retryMs / 1_000 },
      'token rejected by the service: set aside, the rest of its batch keeps flowing',
    );
    this.host.onSetAside(token, reason, now);
  }

  private pump(): void {
    const now = this.host.clock.now();
    while (this.inFlight.size < MAX_IN_FLIGHT && this.host.active(now)) {
      const job = this.nextJob(now);
      if (job === undefined) return;
      this.launch(job, now);
    }
  }

  private nextJob(now: number): Job | undefined {
    for (let i = 0; i < this.queue.length; i++) {
      const group = this.queue[i] as Group;
      if (group.notBefore > now) continue;
      this.queue.splice(i, 1);
      const tokens = group.tokens.filter((t) => this.heldTokens.has(t) && this.host.wanted(t));
      if (tokens.length === 0) {
        group.root.pending -= 1;
        i -= 1;
        continue;
      }
      return { kind: 'probe', group: { ...group, tokens } };
    }
    for (const [token, a] of this.aside) {
      if (a.retryAt > now || this.retrying.has(token)) continue;
      if (!this.host.wanted(token)) {
        this.forget(token);
        continue;
      }
      return { kind: 'retry', token };
    }
    return undefined;
  }

  private launch(job: Job, now: number): void {
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
            if (done()) this.accepted(job, batch, data);
          },
          error: (error: unknown) => {
            if (done()) this.refused(job, error);
          },
          complete: () => {
            if (!answered && done()) this.refused(job, new Error('no answer'));
          },
        }),
    );
  }

  private accepted(job: Job, batch: PollBatch, data: readonly unknown[]): void {
    const now = this.host.clock.now();
    for (const t of batch.tokens) {
      this.heldTokens.delete(t);
      if (this.aside.delete(t)) {
        this.host.logger.info({ token: t }, 'set-aside token accepted again: back in the plan');
        this.host.onRestored(t, now);
      }
    }
    this.host.onAnswer(batch, data, now);
    this.host.onHeldChanged();
    if (job.kind === 'probe') {
      this.partDone(job.group.root);
      this.pump();
    }
  }

  private refused(job: Job, error: unknown): void {
    const now = this.host.clock.now();
    if (isContentRejection(error)) {
      if (job.kind === 'probe') {
        this.blame(job.group.tokens, error, now, job.group.root);
        this.host.onHeldChanged();
      } else {
        this.putAside(job.token, `rejected by the service: ${describe(error)}`, now);
      }
    } else if (isSessionRefusal(error)) {
      if (job.kind === 'probe') this.queue.unshift({ ...job.group, notBefore: now });
      this.host.onSessionRefused(error);
      return;
    } else if (job.kind === 'probe') {
      // Says nothing about the tokens (5xx, network, stalled): they were only suspects.
      this.release(job.group);
    } else {
      const a = this.aside.get(job.token);
      if (a !== undefined) a.retryAt = now + this.host.transientRetryMs;
    }
    this.pump();
  }
}

function isSessionRefusal(error: unknown): boolean {
  if (error instanceof SessionError) return true;
  const status = (error as { status?: unknown } | null | undefined)?.status;
  return status === 401 || status === 403;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const e = error as Error & { status?: unknown; serviceMessage?: unknown };
  const detail = typeof e.serviceMessage === 'string' ? e.serviceMessage : e.message;
  return e.status === undefined ? detail : `HTTP ${String(e.status)} ${detail}`;
}
