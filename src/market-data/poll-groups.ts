import type { Clock } from '../clock/clock.ts';
import type { HealthTracker } from './health-tracker.ts';
import { PollGroup, type PollGroupHost } from './poll-group.ts';
import type { DemandKind } from './quote-demand.ts';
import type { RequestBudget } from './request-budget.ts';

/** Timing settings shared by every loop of the bus. */
interface PollGroupTiming {
  readonly maxBackoffMs: number;
  readonly requestTimeoutMs: number;
  readonly closedRecheckMs: number;
}

/** What {@link PollGroups} needs from the bus. */
export interface PollGroupsDeps {
  readonly clock: Clock;
  readonly health: HealthTracker;
  readonly timing: PollGroupTiming;
  readonly host: (kind: DemandKind) => PollGroupHost;
  readonly budget: (kind: DemandKind) => RequestBudget;
  /** A loop created while the bus is paused waits for the resume to start. */
  readonly paused: () => boolean;
}

/**
 * The running poll loops of the bus, one per kind and interval, ref-counted by the
 * subscriptions that ask for that interval: started by the first, stopped with the last.
 *
 * @example
 * ```ts
 * groups.addRef('quotes', 1_000); // starts the 1 s quote loop
 * groups.removeRef('quotes', 1_000); // stops it again
 * ```
 */
export class PollGroups {
  private readonly groups: Record<DemandKind, Map<number, { group: PollGroup; refs: number }>> = {
    quotes: new Map(),
    greeks: new Map(),
  };

  constructor(private readonly deps: PollGroupsDeps) {}

  /** Number of running loops. */
  get size(): number {
    return this.groups.quotes.size + this.groups.greeks.size;
  }

  /** One more subscription polled every `intervalMs`. */
  addRef(kind: DemandKind, intervalMs: number): void {
    const groups = this.groups[kind];
    const entry = groups.get(intervalMs);
    if (entry !== undefined) {
      entry.refs += 1;
      return;
    }
    const group = new PollGroup({
      intervalMs,
      clock: this.deps.clock,
      host: this.deps.host(kind),
      budget: this.deps.budget(kind),
      ...this.deps.timing,
    });
    groups.set(intervalMs, { group, refs: 1 });
    if (!this.deps.paused()) group.start();
  }

  /** One subscription polled every `intervalMs` less. */
  removeRef(kind: DemandKind, intervalMs: number): void {
    const groups = this.groups[kind];
    const entry = groups.get(intervalMs);
    if (entry === undefined) return;
    entry.refs -= 1;
    if (entry.refs > 0) return;
    entry.group.stop();
    groups.delete(intervalMs);
    this.deps.health.dropGroup(`${kind}@${intervalMs}ms`, this.deps.clock.now());
  }

  /** Starts every loop of `kind` (after a pause). */
  startAll(kind: DemandKind): void {
    for (const { group } of this.groups[kind].values()) group.start();
  }

  /** Stops every loop of `kind`, keeping them for a later start. */
  stopAll(kind: DemandKind): void {
    for (const { group } of this.groups[kind].values()) group.stop();
  }

  /** Stops and forgets every loop of `kind` (the bus is closing). */
  clear(kind: DemandKind): void {
    this.stopAll(kind);
    this.groups[kind].clear();
  }
}
