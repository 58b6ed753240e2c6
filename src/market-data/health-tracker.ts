import type { Logger } from 'pino';
import { Observable, Subject } from 'rxjs';
import type { HealthEvent, HealthStatus, StaleEvent } from './health.ts';

/** Which request a token was rejected in. */
export type RejectKind = 'quotes' | 'greeks';

interface TokenHealth {
  /** When fresh data last arrived. */
  lastFreshAt: number | undefined;
  /** Staleness is measured from here at the earliest: subscription or resume. */
  expectSince: number;
  stale: boolean;
  /** The last request for the token failed. */
  failing: boolean;
  /** The service rejects the token; it is set aside. */
  rejected: boolean;
  status: HealthStatus;
}

/**
 * Health and staleness bookkeeping of the bus: per token (fresh, failing, stale,
 * rejected) and overall (`session-expired` > `stale` > `degraded` > `ok`; set-aside
 * tokens make it `degraded`). Emits only on change.
 *
 * @example
 * ```ts
 * const health = new HealthTracker(logger);
 * health.track(26000, clock.now());
 * health.fresh(26000, clock.now());
 * ```
 */
export class HealthTracker {
  private readonly tokens = new Map<number, TokenHealth>();
  private readonly failingGroups = new Set<string>();
  private readonly events = new Subject<HealthEvent>();
  private readonly staleEvents = new Subject<StaleEvent>();
  private staleCount = 0;
  /** Set-aside quote tokens (also flagged in their TokenHealth). */
  private readonly rejectedQuotes = new Set<number>();
  /** Set-aside greeks tokens (greeks tokens are not tracked otherwise). */
  private readonly rejectedGreeks = new Set<number>();
  private paused = false;
  private current: HealthEvent;

  /**
   * Overall status first (the current one, at once), then every change of the bus or of
   * a token.
   */
  readonly health$: Observable<HealthEvent>;
  /** Tokens turning stale or fresh again. */
  readonly stale$: Observable<StaleEvent>;

  constructor(
    private readonly logger: Logger,
    now: number,
  ) {
    this.current = { status: 'ok', at: now };
    this.health$ = new Observable<HealthEvent>((subscriber) => {
      subscriber.next(this.current);
      return this.events.subscribe(subscriber);
    });
    this.stale$ = this.staleEvents.asObservable();
  }

  /** Overall status now. */
  get status(): HealthStatus {
    return this.current.status;
  }

  /** Status of a subscribed token; undefined for tokens nobody subscribes to. */
  statusOf(token: number): HealthStatus | undefined {
    const t = this.tokens.get(token);
    if (t === undefined) return undefined;
    return this.paused ? 'session-expired' : t.status;
  }

  /** True when the token is subscribed and stale. */
  isStale(token: number): boolean {
    return this.tokens.get(token)?.stale ?? false;
  }

  /** When fresh data for the token last arrived. */
  lastFreshAt(token: number): number | undefined {
    return this.tokens.get(token)?.lastFreshAt;
  }

  /** Number of tokens tracked (for memory checks). */
  get size(): number {
    return this.tokens.size;
  }

  /** Starts tracking a token that gained its first subscriber. */
  track(token: number, now: number): void {
    if (this.tokens.has(token)) return;
    this.tokens.set(token, {
      lastFreshAt: undefined,
      expectSince: now,
      stale: false,
      failing: false,
      rejected: false,
      status: 'ok',
    });
  }

  /** Forgets a token that lost its last subscriber. */
  untrack(token: number, now: number): void {
    const t = this.tokens.get(token);
    if (t === undefined) return;
    this.tokens.delete(token);
    if (t.stale) this.staleCount -= 1;
    if (t.stale || this.rejectedQuotes.delete(token)) this.refresh(now);
  }

  /**
   * The service rejects `token` (`kind` says in which request): it is set aside. A
   * greeks rejection is reported but leaves the token's quote health alone — an equity
   * asked for greeks by mistake still quotes fine.
   */
  rejected(token: number, now: number, reason: string, kind: RejectKind = 'quotes'): void {
    const t = this.tokens.get(token);
    if (kind === 'quotes' && t === undefined) return;
    if (kind === 'greeks' || t === undefined) {
      this.rejectedGreeks.add(token);
      this.events.next({ status: 'rejected', at: now, token, reason: `greeks ${reason}` });
    } else {
      this.rejectedQuotes.add(token);
      t.rejected = true;
      if (t.stale) {
        // Set aside explains the silence better than "stale", and is not swept.
        t.stale = false;
        this.staleCount -= 1;
      }
      this.setToken(token, t, 'rejected', now, reason);
    }
    this.refresh(now);
  }

  /** A set-aside token was accepted again (its fresh data follows). */
  restored(token: number, now: number, kind: RejectKind = 'quotes'): void {
    if (kind === 'greeks') {
      if (!this.rejectedGreeks.delete(token)) return;
      this.events.next({ status: 'ok', at: now, token, reason: 'greeks accepted again' });
    } else {
      const t = this.tokens.get(token);
      if (!this.rejectedQuotes.delete(token) || t === undefined) return;
      t.rejected = false;
      t.expectSince = now;
      this.setToken(token, t, 'ok', now, 'accepted again');
    }
    this.refresh(now);
  }

  /** Greeks token nobody wants any more: its rejection no longer counts. */
  forgetGreeks(token: number, now: number): void {
    if (this.rejectedGreeks.delete(token)) this.refresh(now);
  }

  /** Fresh data for `token` arrived at `at`. */
  fresh(token: number, at: number): void {
    const t = this.tokens.get(token);
    if (t === undefined) return;
    t.lastFreshAt = at;
    t.failing = false;
    if (t.rejected) return;
    if (t.stale) {
      t.stale = false;
      this.staleCount -= 1;
      this.staleEvents.next({ token, stale: false, at, lastFreshAt: at });
      // The overall status follows at the end of the cycle (`cycle`), so that a recovery
      // does not pass through `degraded` on its way to `ok`.
    }
    this.setToken(token, t, 'ok', at, 'fresh data');
  }

  /** A request for `tokens` failed. */
  failed(tokens: readonly number[], now: number, reason: string): void {
    for (const token of tokens) {
      const t = this.tokens.get(token);
      if (t === undefined || t.rejected) continue;
      t.failing = true;
      if (!t.stale) this.setToken(token, t, 'degraded', now, reason);
    }
  }

  /**
   * Marks tokens stale whose last fresh data (or subscription, or the gate's opening) is
   * more than `thresholdMs` old.
   */
  sweep(tokens: readonly number[], now: number, thresholdMs: number, openedAt: number): void {
    let changed = false;
    for (const token of tokens) {
      const t = this.tokens.get(token);
      if (t === undefined || t.stale || t.rejected) continue;
      const since = Math.max(t.lastFreshAt ?? Number.NEGATIVE_INFINITY, t.expectSince, openedAt);
      if (now - since <= thresholdMs) continue;
      t.stale = true;
      this.staleCount += 1;
      changed = true;
      this.staleEvents.next({ token, stale: true, at: now, lastFreshAt: t.lastFreshAt });
      this.setToken(token, t, 'stale', now, `no fresh data for ${now - since} ms`);
    }
    if (changed) this.refresh(now);
  }

  /** A poll cycle of group `key` finished; `error` is the first failure, if any. */
  cycle(key: string, ok: boolean, now: number, error?: unknown): void {
    if (!ok && !this.failingGroups.has(key)) {
      this.failingGroups.add(key);
      this.logger.warn(
        { group: key, err: describe(error) },
        'polls failing; retrying with backoff',
      );
    } else if (ok && this.failingGroups.delete(key)) {
      this.logger.info({ group: key }, 'polls recovered');
    }
    this.refresh(now);
  }

  /** Group `key` stopped (no subscribers left): its failures no longer count. */
  dropGroup(key: string, now: number): void {
    if (this.failingGroups.delete(key)) this.refresh(now);
  }

  /** The service refused the credentials; polling is paused. */
  sessionExpired(now: number, error: unknown): void {
    if (this.paused) return;
    this.paused = true;
    // Debug only: the kernel's session-expiry notice logs the one error line, with the
    // remedy, from the `session-expired` health event below.
    this.logger.debug(
      { err: describe(error) },
      'session expired or credentials refused; polling paused until new credentials arrive',
    );
    this.refresh(now, 'credentials refused');
  }

  /** Polling resumes (new credentials): every token gets K intervals from `now`. */
  resumed(now: number): void {
    if (!this.paused) return;
    this.paused = false;
    this.failingGroups.clear();
    for (const t of this.tokens.values()) t.expectSince = now;
    this.logger.debug('polling resumed');
    this.refresh(now, 'resumed');
  }

  /** Completes both streams (bus shutdown). */
  complete(): void {
    this.events.complete();
    this.staleEvents.complete();
    this.tokens.clear();
    this.rejectedQuotes.clear();
    this.rejectedGreeks.clear();
  }

  private setToken(
    token: number,
    t: TokenHealth,
    status: HealthStatus,
    at: number,
    reason: string,
  ): void {
    if (t.status === status) return;
    t.status = status;
    this.events.next({ status, at, token, reason });
  }

  private refresh(now: number, why?: string): void {
    let status: HealthStatus;
    let reason: string;
    if (this.paused) {
      status = 'session-expired';
      reason = why ?? 'credentials refused';
    } else if (this.staleCount > 0) {
      status = 'stale';
      reason = `${this.staleCount} stale token(s)`;
    } else if (this.failingGroups.size > 0) {
      status = 'degraded';
      reason = `polls failing: ${[...this.failingGroups].join(', ')}`;
    } else if (this.rejectedQuotes.size + this.rejectedGreeks.size > 0) {
      status = 'degraded';
      reason = `${this.rejectedQuotes.size + this.rejectedGreeks.size} token(s) rejected by the service and set aside`;
    } else {
      status = 'ok';
      reason = why ?? 'all polls healthy';
    }
    if (status === this.current.status) return;
    this.current = { status, at: now, reason };
    this.events.next(this.current);
  }
}

function describe(error: unknown): Record<string, unknown> | undefined {
  if (error === undefined) return undefined;
  if (error instanceof Error) {
    const status = (error as { status?: unknown }).status;
    return {
      name: error.name,
      message: error.message,
      ...(status === undefined ? {} : { status }),
    };
  }
  return { message: String(error) };
}
