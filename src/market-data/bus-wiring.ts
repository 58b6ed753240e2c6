import type { Logger } from 'pino';
import type { ObservableInput } from 'rxjs';
import type { Quote } from '../api/schemas/quote.ts';
import type { Greeks } from '../api/schemas/utilities.ts';
import type { Clock } from '../clock/clock.ts';
import type { BusFailures } from './bus-failures.ts';
import type { GateWatch } from './gate-watch.ts';
import type { HealthTracker } from './health-tracker.ts';
import type { Ingest } from './ingest.ts';
import type { PollGroupHost } from './poll-group.ts';
import type { PollBatch } from './poll-plan.ts';
import type { PollPlanner } from './poll-planner.ts';
import type { DemandKind, TokenDemand } from './quote-demand.ts';
import { RejectIsolator } from './reject-isolator.ts';
import type { RequestBudget } from './request-budget.ts';

/** The parts of the bus a poll loop and an isolator call back into. */
export interface BusParts {
  readonly clock: Clock;
  readonly logger: Logger;
  readonly health: HealthTracker;
  readonly demand: TokenDemand;
  readonly planner: PollPlanner;
  readonly gate: GateWatch;
  readonly ingest: Ingest;
  readonly failures: BusFailures;
  readonly isolator: (kind: DemandKind) => RejectIsolator;
  readonly budget: (kind: DemandKind) => RequestBudget;
  readonly fetch: (
    kind: DemandKind,
    batch: PollBatch,
    signal: AbortSignal,
  ) => ObservableInput<readonly unknown[]>;
  /** A token is stale after this many effective intervals without fresh data. */
  readonly staleAfter: number;
  readonly closed: () => boolean;
}

/**
 * The callbacks every poll loop of `kind` runs on: the plan's batches, the gate, the
 * fetch, and where answers, failures, cycles and heartbeats go.
 *
 * @example
 * ```ts
 * new PollGroup({ intervalMs: 1_000, clock, budget, host: pollHost('quotes', parts), ...timing });
 * ```
 */
export function pollHost(kind: DemandKind, parts: BusParts): PollGroupHost {
  const { planner, health, ingest, failures } = parts;
  return {
    batches: (intervalMs) => planner.planOf(kind).plan.batches.get(intervalMs) ?? [],
    effectiveIntervalMs: (intervalMs) => intervalMs * planner.planOf(kind).factor,
    gate: (now) => parts.gate.gate(now),
    fetch: (batch, signal) => parts.fetch(kind, batch, signal),
    onAnswer: (_intervalMs, batch, data, receivedAt) =>
      kind === 'quotes'
        ? ingest.quotes(batch, data as readonly Quote[], receivedAt)
        : ingest.greeks(batch, data as readonly Greeks[], receivedAt),
    onFailure: (intervalMs, batch, error, failures_) =>
      failures.onFailure(kind, intervalMs, batch, error, failures_),
    onCycle: (intervalMs, ok) => failures.cycle(kind, intervalMs, ok),
    onHeartbeat: (intervalMs, now) => {
      parts.isolator(kind).tick();
      if (kind !== 'quotes') return;
      const { plan, factor } = planner.planOf(kind);
      const tokens = plan.tokensByInterval.get(intervalMs);
      if (tokens === undefined) return;
      health.sweep(tokens, now, parts.staleAfter * intervalMs * factor, parts.gate.openedAt);
    },
  };
}

/** Timing of the isolation of rejected tokens. */
export interface IsolatorTiming {
  /** The configured interval of `kind` (quotes or greeks). */
  readonly intervalMs: number;
  readonly requestTimeoutMs: number;
  readonly retryMs: number;
}

/**
 * The isolator of `kind`: finds the tokens a refused batch is to blame on, sets them aside
 * and asks for them alone now and then, through the same fetch and ingest as the loops.
 *
 * @example
 * ```ts
 * const isolator = rejectIsolator('quotes', host, parts, { intervalMs: 1_000, requestTimeoutMs: 15_000, retryMs: 300_000 });
 * ```
 */
export function rejectIsolator(
  kind: DemandKind,
  host: PollGroupHost,
  parts: BusParts,
  timing: IsolatorTiming,
): RejectIsolator {
  const { clock, demand, failures, health, planner } = parts;
  return new RejectIsolator({
    clock,
    logger: parts.logger.child({ isolate: kind }),
    budget: parts.budget(kind),
    // About one interval: suspects must not wait out a regular poll's time-out.
    probeTimeoutMs: Math.min(timing.requestTimeoutMs, timing.intervalMs),
    retryMs: timing.retryMs,
    transientRetryMs: timing.intervalMs,
    wanted: (token) => demand.wants(kind, token),
    modeFor: (tokens) => (kind === 'quotes' ? demand.richestMode(tokens) : undefined),
    active: (now) => !failures.paused && !parts.closed() && parts.gate.isActive(now),
    fetch: (batch, signal) => host.fetch(batch, signal),
    onAnswer: (batch, data, receivedAt) => host.onAnswer(0, batch, data, receivedAt),
    onSessionRefused: (error) => failures.sessionRefused(error),
    onHeldChanged: () => planner.invalidate(kind),
    onSetAside: (token, reason, at) => health.rejected(token, at, reason, kind),
    onRestored: (token, at) => health.restored(token, at, kind),
  });
}
