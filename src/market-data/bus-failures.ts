import type { Logger } from 'pino';
import type { Clock } from '../clock/clock.ts';
import type { RequestCounters } from './bus-counters.ts';
import type { HealthTracker } from './health-tracker.ts';
import type { FailureVerdict } from './poll-group.ts';
import type { PollGroups } from './poll-groups.ts';
import type { PollBatch } from './poll-plan.ts';
import type { DemandKind } from './quote-demand.ts';
import type { RejectIsolator } from './reject-isolator.ts';
import { isContentRejection, isSessionRefusal } from './rejection.ts';

const KINDS = ['quotes', 'greeks'] as const;

/** What {@link BusFailures} needs from the bus. */
export interface BusFailuresDeps {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly health: HealthTracker;
  readonly counters: RequestCounters;
  readonly groups: PollGroups;
  readonly isolator: (kind: DemandKind) => RejectIsolator;
}

/**
 * Failure handling of the bus: decides what a failed poll means (pause on a refused
 * session, isolate a content rejection, otherwise retry), remembers the first error of
 * each cycle for the health report, and owns the paused state.
 *
 * @example
 * ```ts
 * const verdict = failures.onFailure('quotes', 1_000, batch, error, 1);
 * if (failures.paused) failures.resume();
 * ```
 */
export class BusFailures {
  private readonly cycleErrors = new Map<string, unknown>();
  private pausedNow = false;

  constructor(private readonly deps: BusFailuresDeps) {}

  /** True after a refused session until {@link resume}. */
  get paused(): boolean {
    return this.pausedNow;
  }

  /** Verdict on one failed request of a poll loop. */
  onFailure(
    kind: DemandKind,
    intervalMs: number,
    batch: PollBatch,
    error: unknown,
    failures: number,
  ): FailureVerdict {
    const { counters, clock, health, logger } = this.deps;
    counters.failedRequests += 1;
    const now = clock.now();
    if (isSessionRefusal(error)) {
      this.pause(now, error);
      return 'pause';
    }
    if (isContentRejection(error)) {
      // Not the service's trouble but one of the tokens': find it, keep the rest flowing.
      this.deps.isolator(kind).rejected(batch, error);
      return 'isolated';
    }
    const key = `${kind}@${intervalMs}ms`;
    if (!this.cycleErrors.has(key)) this.cycleErrors.set(key, error);
    logger.debug(
      { group: key, failures, tokens: batch.tokens.length, err: errorName(error) },
      'poll failed',
    );
    if (kind === 'quotes') health.failed(batch.tokens, now, `poll failed: ${errorName(error)}`);
    return 'retry';
  }

  /** An isolation probe met a refused session: counts as a failure and pauses. */
  sessionRefused(error: unknown): void {
    this.deps.counters.failedRequests += 1;
    this.pause(this.deps.clock.now(), error);
  }

  /** Reports a settled cycle, with the first error it met (if any). */
  cycle(kind: DemandKind, intervalMs: number, ok: boolean): void {
    const key = `${kind}@${intervalMs}ms`;
    this.deps.health.cycle(key, ok, this.deps.clock.now(), this.cycleErrors.get(key));
    this.cycleErrors.delete(key);
  }

  /** Resumes polling after a refused session (no-op otherwise). */
  resume(): void {
    if (!this.pausedNow) return;
    this.pausedNow = false;
    this.deps.health.resumed(this.deps.clock.now());
    for (const kind of KINDS) this.deps.groups.startAll(kind);
  }

  private pause(now: number, error: unknown): void {
    if (this.pausedNow) return;
    this.pausedNow = true;
    for (const kind of KINDS) {
      this.deps.groups.stopAll(kind);
      this.deps.isolator(kind).stop();
    }
    this.cycleErrors.clear();
    this.deps.health.sessionExpired(now, error);
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
