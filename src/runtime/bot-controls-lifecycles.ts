import type { OrderEvent } from '../domain/order-events.ts';
import { isFinal, type TrackedOrder } from '../execution/tracked-order.ts';
import { type LifecycleStep, lifecycleStep } from './bot-controls-status.ts';

/** An order event that names its order (every kind but a denial or a deferral). */
type TaggedEvent = Extract<OrderEvent, { tag: string }>;

/** The orders a status shows: every working order and the `recent` latest finished ones. */
export function shownOrders(
  orders: readonly TrackedOrder[],
  recent: number,
): { working: TrackedOrder[]; finished: TrackedOrder[] } {
  const working: TrackedOrder[] = [];
  const done: TrackedOrder[] = [];
  for (const o of orders) (isFinal(o.status) ? done : working).push(o);
  const finished = done.sort((a, b) => b.placedAt - a.placedAt).slice(0, recent);
  return { working, finished };
}

/**
 * The lifecycle steps of the orders a status can show. The engine keeps every order of
 * the process's life, but a status shows only the working ones and the latest finished
 * ones: the steps of the others are dropped, when a status is built and whenever the
 * count passes twice what the last prune kept. So a bot that runs for days holds steps
 * for about as many orders as it shows, not for every order of every day.
 */
export class OrderLifecycles {
  private readonly steps = new Map<string, LifecycleStep[]>();
  /** A new order past this count prunes: at least twice the floor, so pruning is rare. */
  private pruneAbove: number;

  constructor(
    /** The orders shown now (see {@link shownOrders}); read only when pruning. */
    private readonly shown: () => readonly TrackedOrder[],
    /** How many finished orders a status shows. */
    private readonly recent: number,
  ) {
    this.pruneAbove = 2 * recent;
  }

  /** Adds the step `e` makes to its order's lifecycle. */
  add(e: TaggedEvent): void {
    let steps = this.steps.get(e.tag);
    if (steps === undefined) {
      steps = [];
      this.steps.set(e.tag, steps);
      // The order of `e` is tracked before its first event; kept by name all the same.
      if (this.steps.size > this.pruneAbove) this.keepOnly(this.shown(), e.tag);
    }
    steps.push(lifecycleStep(e));
  }

  /** The steps seen so far of the order placed under `tag`. */
  of(tag: string): readonly LifecycleStep[] {
    return this.steps.get(tag) ?? [];
  }

  /** Drops the steps of every order but `orders` (and `tag`). */
  keepOnly(orders: readonly TrackedOrder[], tag?: string): void {
    const keep = new Set<string>();
    for (const o of orders) keep.add(o.tag);
    if (tag !== undefined) keep.add(tag);
    for (const key of this.steps.keys()) if (!keep.has(key)) this.steps.delete(key);
    this.pruneAbove = Math.max(2 * this.steps.size, 2 * this.recent);
  }

  /** How many orders' steps are kept. */
  get size(): number {
    return this.steps.size;
  }
}
