import type { HeldTokens } from './held-tokens.ts';
import type { RejectIsolatorHost } from './reject-isolator-host.ts';
import { tokensNamedIn } from './rejection.ts';

/** A refused batch being bisected: did any of its parts turn out to be to blame? */
export interface Root {
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

/** A part of a refused batch, to be probed alone from `notBefore`. */
export interface Group {
  readonly tokens: readonly number[];
  readonly notBefore: number;
  readonly root: Root;
}

/** What {@link Bisection} needs of the isolator's host. */
export type BisectionHost = Pick<RejectIsolatorHost, 'logger' | 'wanted' | 'onHeldChanged'>;

/**
 * Works out which tokens of a refused batch are to blame: the queue of parts still to be
 * probed, and what was learnt on the way (whether the numbers a refusal names can be
 * trusted; whether the "no culprit" warning was given). A lone refused token is set
 * aside in {@link HeldTokens}; the others are held while they are suspects.
 *
 * @example
 * ```ts
 * const bisection = new Bisection(host, held);
 * bisection.blame([1, 2, 3, 4], refusal, now); // queues [1, 2] and [3, 4], all held
 * const part = bisection.next(now); // { tokens: [1, 2], … }
 * ```
 */
export class Bisection {
  private readonly queue: Group[] = [];
  private noCulpritWarned = false;
  /** Cleared once a refusal named tokens that were then accepted alone. */
  private trustNames = true;

  constructor(
    private readonly host: BisectionHost,
    private readonly held: HeldTokens,
  ) {}

  /**
   * `tokens` (all held or about to be) were refused together at `now`: a regular batch
   * (no `root`) or a part of one being bisected. A lone token is to blame; otherwise the
   * tokens the refusal names are each checked alone (a number in the message may be
   * something else: "at most 100 tokens") while the rest go back to the plan, and
   * without names the batch is split in halves.
   */
  blame(asked: readonly number[], error: unknown, now: number, root?: Root): void {
    // Tokens whose last subscriber left while the request was out are nobody's concern.
    const tokens = asked.filter((t) => this.host.wanted(t));
    if (tokens.length === 0) {
      if (root !== undefined) this.partDone(root);
      return;
    }
    if (tokens.length === 1) {
      this.held.setAsideFor(tokens[0] as number, error, now);
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
      if (named.length > 0 && !named.includes(t)) this.held.unhold(t);
      else this.held.hold(t);
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
  release(group: Group): void {
    for (const t of group.tokens) this.held.releaseSuspect(t);
    group.root.inconclusive = true;
    this.partDone(group.root);
    this.host.onHeldChanged();
  }

  /** One part of a bisection is settled; a batch whose every part passed blames nobody. */
  partDone(root: Root): void {
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

  /**
   * The first part due at `now`, cut down to the tokens still held and wanted; a part
   * left with none is dropped, counted as settled without a verdict.
   */
  next(now: number): Group | undefined {
    for (let i = 0; i < this.queue.length; i++) {
      const group = this.queue[i] as Group;
      if (group.notBefore > now) continue;
      this.queue.splice(i, 1);
      const tokens = group.tokens.filter((t) => this.held.has(t) && this.host.wanted(t));
      if (tokens.length === 0) {
        group.root.pending -= 1;
        i -= 1;
        continue;
      }
      return { ...group, tokens };
    }
    return undefined;
  }

  /** A part whose probe was abandoned (pause, refused session) is probed again first. */
  requeue(group: Group, now: number): void {
    this.queue.unshift({ ...group, notBefore: now });
  }

  clear(): void {
    this.queue.length = 0;
  }
}
