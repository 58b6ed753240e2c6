import type { TrackedIndex } from './reconcile.ts';
import type { SeenRecord } from './reconcile-order.ts';
import { isFinal, type TrackedOrder } from './tracked-order.ts';

const intentKey = (strategyId: string, intentId: string): string =>
  `${strategyId}\u0000${intentId}`;
const exposureKey = (strategyId: string, token: number): string => `${strategyId}\u0000${token}`;

/**
 * The orders execution follows, indexed for what a poll and the engine ask: by tag, by
 * intent, by service id, by an earlier attempt's tag, and the ones not yet final, so
 * that no question scans the day's orders.
 */
export class TrackedOrders {
  private readonly orders = new Map<string, TrackedOrder>();
  /** Orders that were not final when last looked at: `active()` need not scan the day. */
  private readonly open = new Set<TrackedOrder>();
  /** The same by strategy and instrument: a placement's exposure reads only its own. */
  private readonly openByKey = new Map<string, Set<TrackedOrder>>();
  /** The latest order of each strategy intent. */
  private readonly byIntentKey = new Map<string, TrackedOrder>();
  /** Orders by service id; orders learn their id later (see {@link syncIds}). */
  private readonly byOrderId = new Map<string, TrackedOrder>();
  /** Orders without a service id yet. */
  private readonly idless = new Set<TrackedOrder>();
  /** Tags of earlier attempts, to the order that superseded them. */
  private readonly byPreviousTag = new Map<string, TrackedOrder>();
  /** The record each order was last brought in line with: unchanged ones are skipped. */
  protected readonly seen = new WeakMap<TrackedOrder, SeenRecord>();

  /** Starts following `order` (by its tag). */
  track(order: TrackedOrder): void {
    this.orders.set(order.tag, order);
    this.byIntentKey.set(intentKey(order.strategyId, order.intentId), order);
    if (!isFinal(order.status)) {
      this.open.add(order);
      const key = exposureKey(order.strategyId, order.intent.instrument.token);
      const mine = this.openByKey.get(key);
      if (mine === undefined) this.openByKey.set(key, new Set([order]));
      else mine.add(order);
    }
    if (order.orderId === undefined) this.idless.add(order);
    else this.byOrderId.set(order.orderId, order);
    for (const tag of order.previousTags ?? []) this.byPreviousTag.set(tag, order);
  }

  /** Follows `order` under a new tag (a re-placement); the old key goes. */
  rekey(oldTag: string, order: TrackedOrder): void {
    this.orders.delete(oldTag);
    this.track(order);
  }

  /** The latest order placed for a strategy's intent, if any. */
  byIntent(strategyId: string, intentId: string): TrackedOrder | undefined {
    return this.byIntentKey.get(intentKey(strategyId, intentId));
  }

  /** The order placed under `tag` (its current tag: a re-placement is found by its new one). */
  byTag(tag: string): TrackedOrder | undefined {
    return this.orders.get(tag);
  }

  /** Every tracked order. */
  all(): TrackedOrder[] {
    return [...this.orders.values()];
  }

  /** Orders not yet final. */
  active(): TrackedOrder[] {
    const out: TrackedOrder[] = [];
    for (const o of this.open) {
      if (isFinal(o.status)) this.open.delete(o);
      else out.push(o);
    }
    return out;
  }

  /**
   * A strategy's orders not yet final in one instrument (what its exposure counts),
   * without a scan of the other working orders.
   */
  workingFor(strategyId: string, token: number): TrackedOrder[] {
    const key = exposureKey(strategyId, token);
    const mine = this.openByKey.get(key);
    if (mine === undefined) return [];
    const out: TrackedOrder[] = [];
    for (const o of mine) {
      if (isFinal(o.status)) mine.delete(o);
      else out.push(o);
    }
    if (mine.size === 0) this.openByKey.delete(key);
    return out;
  }

  /** How many orders are not yet final (what `active().length` says, without the array). */
  openCount(): number {
    for (const o of this.open) if (isFinal(o.status)) this.open.delete(o);
    return this.open.size;
  }

  /** Whether `order` is followed and not yet final. */
  isWorking(order: TrackedOrder): boolean {
    return this.open.has(order) && !isFinal(order.status);
  }

  /** What the tracker knows, as {@link reconcile} reads it. */
  protected index(): TrackedIndex {
    this.syncIds();
    return {
      active: this.active(),
      byOrderId: this.byOrderId,
      byPreviousTag: this.byPreviousTag,
      seen: this.seen,
    };
  }

  /** Orders learn their id from a placement's answer: index those that have. */
  private syncIds(): void {
    for (const o of this.idless) {
      if (o.orderId === undefined) {
        // Refused at placement: final without ever getting an id, nothing left to match.
        if (isFinal(o.status)) this.idless.delete(o);
        continue;
      }
      this.byOrderId.set(o.orderId, o);
      this.idless.delete(o);
    }
  }
}
