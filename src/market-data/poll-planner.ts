import type { Logger } from 'pino';
import { type PollPlan, planGreeksPolls, planQuotePolls, stretchFactor } from './poll-plan.ts';
import type { DemandKind, TokenDemand } from './quote-demand.ts';
import type { RejectIsolator } from './reject-isolator.ts';
import type { RequestBudget } from './request-budget.ts';

/** A poll plan with the factor its intervals stretch by to fit the budget. */
export interface PlanState {
  readonly plan: PollPlan;
  readonly factor: number;
}

/** What {@link PollPlanner} needs from the bus. */
export interface PollPlannerDeps {
  readonly demand: TokenDemand;
  readonly batchSize: number;
  readonly logger: Logger;
  readonly budget: (kind: DemandKind) => RequestBudget;
  readonly isolator: (kind: DemandKind) => RejectIsolator;
}

/**
 * The current poll plan of each kind, computed on first use after the demand or the set of
 * held tokens changed, and the one warning when it has to stretch the intervals.
 *
 * @example
 * ```ts
 * const { plan, factor } = planner.planOf('quotes');
 * planner.invalidate('quotes'); // after a subscription came or went
 * ```
 */
export class PollPlanner {
  private readonly plans: Record<DemandKind, PlanState | undefined> = {
    quotes: undefined,
    greeks: undefined,
  };
  private readonly stretchLogged: Record<DemandKind, number> = { quotes: 1, greeks: 1 };

  constructor(private readonly deps: PollPlannerDeps) {}

  /** Forgets the plan of `kind`; the next {@link planOf} computes it again. */
  invalidate(kind: DemandKind): void {
    this.plans[kind] = undefined;
  }

  /** The plan of `kind` for the current demand. */
  planOf(kind: DemandKind): PlanState {
    const cached = this.plans[kind];
    if (cached !== undefined) return cached;
    const { demand, batchSize } = this.deps;
    const held = this.deps.isolator(kind).held;
    const plan =
      kind === 'quotes'
        ? planQuotePolls(
            mapValues(demand.quoteTokens, (s) => [...s.demand.values()].map((e) => e.demand)),
            batchSize,
            held,
          )
        : planGreeksPolls(
            mapValues(demand.greeksTokens, (s) => s.demand.keys()),
            batchSize,
            held,
          );
    const budget = this.deps.budget(kind);
    const factor = stretchFactor(
      [...plan.batches].map(([intervalMs, batches]) => ({ intervalMs, batches: batches.length })),
      budget.perSecond,
    );
    this.noteStretch(kind, factor, plan, budget.perSecond);
    const state = { plan, factor };
    this.plans[kind] = state;
    return state;
  }

  /** One warning when the plan starts to stretch (or stretches differently), not per poll. */
  private noteStretch(kind: DemandKind, factor: number, plan: PollPlan, perSecond: number): void {
    const before = this.stretchLogged[kind];
    if (Math.abs(factor - before) < 1e-9) return;
    this.stretchLogged[kind] = factor;
    const intervals = [...plan.batches].map(([intervalMs, batches]) => ({
      intervalMs,
      batches: batches.length,
      effectiveIntervalMs: Math.round(intervalMs * factor),
    }));
    if (factor > 1) {
      this.deps.logger.warn(
        { kind, budgetPerSecond: perSecond, factor, intervals },
        `${kind} polls need more than ${perSecond} requests/s; intervals stretched ×${factor.toFixed(2)}`,
      );
    } else {
      this.deps.logger.info(
        { kind, intervals },
        `${kind} polls fit the budget again; intervals as configured`,
      );
    }
  }
}

function mapValues<K, V, W>(map: ReadonlyMap<K, V>, f: (v: V) => W): Map<K, W> {
  const out = new Map<K, W>();
  for (const [k, v] of map) out.set(k, f(v));
  return out;
}
