import type { RejectIsolatorHost } from './reject-isolator-host.ts';

/** A set-aside token: since when, when it is next asked for alone, and why. */
interface Aside {
  readonly since: number;
  retryAt: number;
  reason: string;
}

/** What {@link HeldTokens} needs of the isolator's host. */
export type HeldTokensHost = Pick<
  RejectIsolatorHost,
  'logger' | 'retryMs' | 'transientRetryMs' | 'wanted' | 'onSetAside' | 'onRestored'
>;

/**
 * The tokens a `RejectIsolator` keeps out of the poll plan: *held* ones (suspects of a
 * batch being bisected, and every set-aside token) and, among them, the *set-aside*
 * ones, known to be refused and asked for alone every `retryMs` until accepted again.
 *
 * @example
 * ```ts
 * const held = new HeldTokens(host);
 * held.setAsideFor(101, refusal, now); // held.tokens has 101; retried alone at now + retryMs
 * held.accepted(101, later); // back in the plan, host.onRestored(101, later)
 * ```
 */
export class HeldTokens {
  private readonly held = new Set<number>();
  private readonly aside = new Map<number, Aside>();

  constructor(private readonly host: HeldTokensHost) {}

  /** Tokens left out of the plan: set aside, or in a batch being bisected. */
  get tokens(): ReadonlySet<number> {
    return this.held;
  }

  has(token: number): boolean {
    return this.held.has(token);
  }

  /** Leaves the token out of the plan (a suspect of a bisection). */
  hold(token: number): void {
    this.held.add(token);
  }

  /** Puts the token back in the plan, set aside or not. */
  unhold(token: number): void {
    this.held.delete(token);
  }

  /** A suspect that could not be judged goes back to the plan, unless it is set aside. */
  releaseSuspect(token: number): void {
    if (!this.aside.has(token)) this.held.delete(token);
  }

  /** Tokens set aside, ascending. */
  setAside(): number[] {
    return [...this.aside.keys()].sort((a, b) => a - b);
  }

  isSetAside(token: number): boolean {
    return this.aside.has(token);
  }

  /** The service refused the token alone at `now`: set it aside (again), retried in `retryMs`. */
  setAsideFor(token: number, error: unknown, now: number): void {
    const reason = `rejected by the service: ${describe(error)}`;
    this.held.add(token);
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

  /** The service answered for the token: back in the plan, restored if it was set aside. */
  accepted(token: number, now: number): void {
    this.held.delete(token);
    if (this.aside.delete(token)) {
      this.host.logger.info({ token }, 'set-aside token accepted again: back in the plan');
      this.host.onRestored(token, now);
    }
  }

  /** A solo retry failed for a reason that says nothing about the token: due again later. */
  retryLater(token: number, now: number): void {
    const a = this.aside.get(token);
    if (a !== undefined) a.retryAt = now + this.host.transientRetryMs;
  }

  /**
   * The first set-aside token due to be asked for alone at `now` and not `busy` (its retry
   * already out); tokens nobody wants any more are forgotten on the way.
   */
  nextRetry(now: number, busy: (token: number) => boolean): number | undefined {
    for (const [token, a] of this.aside) {
      if (a.retryAt > now || busy(token)) continue;
      if (!this.host.wanted(token)) {
        this.forget(token);
        continue;
      }
      return token;
    }
    return undefined;
  }

  /** Nobody wants the token any more: forget it. */
  forget(token: number): void {
    if (!this.held.delete(token)) return;
    this.aside.delete(token);
  }

  clear(): void {
    this.aside.clear();
    this.held.clear();
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const e = error as Error & { status?: unknown; serviceMessage?: unknown };
  const detail = typeof e.serviceMessage === 'string' ? e.serviceMessage : e.message;
  return e.status === undefined ? detail : `HTTP ${String(e.status)} ${detail}`;
}
