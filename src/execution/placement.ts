import { OutcomeUnknownError } from '../api/errors/outcome-unknown-error.ts';
import { SessionError } from '../api/errors/session-error.ts';
import type { OrderBookRecord } from '../api/schemas/order-records.ts';
import type { PlaceIntent } from '../domain/intents.ts';
import { istDayNumber } from '../domain/ist.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import type { Product } from '../domain/order-params.ts';
import { ocoGroupOf } from './brackets/leg-ids.ts';
import type { EngineCore } from './engine-core.ts';
import { isSquareOffExitId } from './exit-slices.ts';
import { exposureOf, partExposure } from './exposure.ts';
import { orderTag, tagSeq } from './order-tag.ts';
import type { FollowUp } from './order-tracker.ts';
import { checkPlace } from './risk/risk-gate.ts';
import { type TrackedOrder, trackedOrder, withStatus } from './tracked-order.ts';
import { tradingWindowDenial } from './trading-window.ts';
import { toPlaceRequest } from './wire-order.ts';

/**
 * Placing orders: tags written to the journal before the send, the day's placement
 * count, one re-placement of an attempt the book shows absent, and the cancel of a
 * duplicate that surfaces after it. Owns the tag sequence, the per-day counts and the
 * attempts a stop counted as not placed.
 */
export class Placements {
  private seq = 0;
  /** Placements per IST day, the framework's own included (the service counts them too). */
  private readonly perDay = new Map<number, number>();
  /** Attempts a stop counted as not placed (absent from the book past the grace). */
  readonly notPlacedAtStop: TrackedOrder[] = [];

  constructor(private readonly core: EngineCore) {}

  /** Rebuilds the day counts and the tag sequence from the journal's orders. */
  restore(orders: readonly TrackedOrder[]): void {
    for (const order of orders) {
      // One row per attempt (a re-placement closes the earlier row), the framework's own
      // included, as counted live. Not placed by this bot: a late duplicate (an earlier
      // attempt's order) and a cover order's stop leg (the broker's, adopted from its book).
      const adopted = order.intentId.endsWith('#duplicate') || order.intentId.endsWith('/stop');
      if (order.system === true && adopted) continue;
      const day = istDayNumber(order.placedAt);
      this.perDay.set(day, (this.perDay.get(day) ?? 0) + 1);
    }
    for (const order of orders) this.seq = Math.max(this.seq, tagSeq(order.tag) ?? 0);
  }

  private newTag(strategyId: string): string {
    this.seq += 1;
    return orderTag(strategyId, this.core.options.clock.now(), this.seq);
  }

  async place(
    intent: PlaceIntent & { strategyId: string },
    reuse?: TrackedOrder,
    system = false,
  ): Promise<void> {
    const { clock, observer } = this.core.options;
    // Stage times only for metrics: no clock read on the path without an observer.
    const enteredAt = observer === undefined ? 0 : performance.now();
    let again = reuse;
    const existing = this.core.tracker.byIntent(intent.strategyId, intent.id);
    // An order the service refused for an expired session was never placed: after the
    // pause it goes out under the same intent and record (marked so until it is sent: a
    // pause that ends after the close defers it again).
    const refused = existing?.sessionRefused === true && again === undefined;
    if (refused) again = existing;
    if (existing !== undefined && again === undefined && !system) {
      this.core.deny(intent, `intent id "${intent.id}" was already used`);
      return;
    }
    const sessions = this.core.sessions();
    if (sessions === undefined) {
      // Start-up goes on while the service is silent; the intent waits for a calendar
      // (the kernel retries deferred intents when one loads) rather than being lost.
      this.core.defer(intent, 'no trading calendar yet: waiting for the service');
      return;
    }
    const now = clock.now();
    if (isIntradayExit(intent) && intent.afterHours !== 'amo') {
      // Sized from its session's position, which the broker squares off at its close:
      // carried into a later session, it would open a position instead.
      const since = again?.placedAt ?? now;
      if (!sessions.isOpen(now) || (sessions.nextClose(since) ?? Number.POSITIVE_INFINITY) <= now) {
        if (again !== undefined) delete again.sessionRefused;
        this.core.deny(
          intent,
          'an intraday square-off exit is not carried past its session (the broker squares intraday positions off at the close): check the position with the broker',
        );
        return;
      }
    }
    let amo = false;
    if (!sessions.isOpen(now)) {
      if (intent.afterHours === 'amo') amo = true;
      else {
        this.core.defer(intent, 'market closed', sessions.nextOpen(now));
        return;
      }
    }
    const day = istDayNumber(now);
    // Only this strategy's working orders in this instrument: the placement's cost does
    // not grow with the other orders working, nor with the day's (issue 13).
    const { tracker } = this.core;
    const working = tracker.workingFor(intent.strategyId, intent.instrument.token);
    // A square-off's exit: orders it asked to cancel give way (counted, a resting stop
    // would make the exit look like a new position, which the kill switch denies).
    const counted = system ? working.filter((o) => o.cancelRequested !== true) : working;
    const exposure = exposureOf(
      this.core.positions,
      tracker,
      intent.strategyId,
      intent.instrument.token,
      again,
      ocoGroupOf(intent.id),
      counted,
    );
    /** The strategy's exposure in one product's part alone (the broker keeps them apart). */
    const part = (product: Product) =>
      partExposure(this.core.positions, tracker, intent, again, counted, product);
    // The trading window: no new intraday entry from the square-off time on. The
    // framework's own orders and re-placements of accepted ones are not new entries.
    const late =
      system || again !== undefined
        ? undefined
        : tradingWindowDenial(
            intent,
            // The intraday part alone: an intraday sell against a delivery holding is an
            // intraday short, not an exit (read only past the square-off time).
            () => part('I'),
            now,
            sessions,
            this.core.options.squareOffMinutesBeforeClose,
          );
    if (late !== undefined) {
      this.core.deny(intent, late);
      return;
    }
    const verdict = checkPlace(
      intent,
      {
        openOrders:
          again !== undefined && tracker.isWorking(again)
            ? tracker.openCount() - 1
            : tracker.openCount(),
        // A square-off's exit reduces its own product's part (one exit per product), even
        // where the net of all products would not show it (parts against each other).
        // Other orders (a cancel-and-replace's new order among the framework's) the net.
        position:
          system && isSquareOffExitId(intent.id)
            ? part(intent.product)
            : exposure.position + exposure.pending,
        placementsToday: this.perDay.get(day) ?? 0,
        killed: this.core.killed,
        quote: this.core.options.quote?.(intent.instrument.token),
      },
      this.core.limits,
    );
    if (!verdict.ok) {
      this.core.deny(intent, verdict.reason);
      return;
    }
    if (verdict.notes.length > 0)
      this.core.options.logger.info(
        { intentId: intent.id, notes: verdict.notes },
        'intent adjusted by risk',
      );
    const checkedAt = observer === undefined ? 0 : performance.now();
    // Copied, then the key set: a spread with a key added after it is built on V8's slow
    // path (µs and hundreds of bytes an object); same keys in the same order.
    const checked = Object.assign({}, verdict.intent) as PlaceIntent & { strategyId: string };
    checked.strategyId = intent.strategyId;
    const tag = this.newTag(intent.strategyId);
    const request = toPlaceRequest(checked, tag, amo);
    const submitted = {
      type: 'OrderSubmitted',
      strategyId: intent.strategyId,
      intentId: intent.id,
      tag,
      at: now,
      intent: checked,
    } as const;
    // Counted before anyone hears of it, as a listener may place again at once. The
    // framework's own orders count too, as the service counts them (its 3,000 a day);
    // exits are never held back by the count (risk-gate.ts).
    this.perDay.set(day, (this.perDay.get(day) ?? 0) + 1);
    let order: TrackedOrder;
    if (again === undefined) {
      order = trackedOrder({
        strategyId: intent.strategyId,
        intentId: intent.id,
        tag,
        intent: checked,
        request,
        placedAt: now,
        system,
      });
      this.core.tracker.track(order);
      // The tag is in the journal before the request is sent: after a crash it is known.
      this.journalBeforeSend(order, [order], submitted);
    } else {
      order = again;
      if (refused) delete order.sessionRefused;
      const oldTag = order.tag;
      // The earlier attempt's row is closed in the same transaction that opens this one,
      // so a restart never takes it for a live order; its tag is still watched for.
      const superseded = withStatus(order, 'replaced');
      // A tag the service refused for the session never reached the book: not watched for.
      if (!refused) order.previousTags = [...(order.previousTags ?? []), oldTag];
      order.tag = tag;
      order.request = request;
      order.status = 'submitting';
      order.placedAt = now;
      delete order.unknownSince;
      this.core.tracker.rekey(oldTag, order);
      this.journalBeforeSend(order, [superseded, order], submitted);
    }
    let sentAt = 0;
    if (observer !== undefined) {
      sentAt = performance.now();
      observer.placementSent(enteredAt, checkedAt, sentAt);
    }
    try {
      const result = await this.core.options.broker.placeOrder(order.variety, request);
      observer?.placementAnswered(sentAt, performance.now());
      // A poll may have seen the order (and its final state) before this answer.
      order.orderId ??= result.orderNo;
      if (order.status === 'submitting' || order.status === 'unknown') order.status = 'pending';
      this.core.persist(order);
    } catch (err) {
      observer?.placementAnswered(sentAt, performance.now());
      if (err instanceof OutcomeUnknownError) {
        if (order.status === 'submitting') {
          order.status = 'unknown';
          order.unknownSince = clock.now();
          this.core.persist(order);
        }
        this.core.options.logger.warn(
          { tag, strategyId: intent.strategyId },
          'placement outcome unknown; reconciling by tag, not resending',
        );
        return;
      }
      order.status = 'rejected';
      if (err instanceof SessionError) order.sessionRefused = true;
      this.core.persist(order);
      throw err;
    }
  }

  /**
   * Journals the rows before the send. A journal that could not write them (disk full, a
   * short write) means the request is never sent: the order is final as `rejected` before
   * the error goes on to become `OrderRejected`, so neither the tracker nor a restart
   * takes it for a live order and places what the strategy was told was rejected.
   */
  private journalBeforeSend(
    order: TrackedOrder,
    rows: readonly TrackedOrder[],
    submitted: OrderEvent,
  ): void {
    try {
      this.core.submitted(rows, submitted);
    } catch (err) {
      order.status = 'rejected';
      throw err;
    }
  }

  /** Acts on what the books alone cannot settle: a confirmed absence, or a duplicate. */
  followUp(step: FollowUp): Promise<void> {
    return step.kind === 'absent'
      ? this.replaceAbsent(step.order)
      : this.cancelDuplicate(step.order, step.record);
  }

  /** The tracker found an attempt of unknown outcome absent past the grace period. */
  private async replaceAbsent(order: TrackedOrder): Promise<void> {
    const now = this.core.options.clock.now();
    const base = {
      strategyId: order.strategyId,
      intentId: order.intentId,
      tag: order.tag,
      at: now,
    };
    if (!this.core.accepting) {
      this.giveUpAtStop(order, now);
      return;
    }
    if (istDayNumber(order.placedAt) !== istDayNumber(now)) {
      // The day's book no longer lists an earlier day's orders: absence proves nothing,
      // even for an attempt a stop counted as not placed (checked first for that).
      order.status = 'unresolved';
      this.core.options.logger.error(
        { tag: order.tag, placedAt: new Date(order.placedAt).toISOString() },
        'an order from an earlier day never had its outcome confirmed; not placing it again: check it with the broker',
      );
      this.core.emit({
        type: 'OrderRejected',
        ...base,
        reason: 'unresolved: outcome never confirmed on its day; not re-placed',
      });
      return;
    }
    if (order.notPlacedAtStop !== undefined) {
      // Absent at the stop and again now, the same day: not placed. Never re-placed: the intent
      // belongs to a run that has ended.
      order.status = 'rejected';
      this.core.emit({
        type: 'OrderRejected',
        ...base,
        reason: 'not placed: absent from the book at the last stop and again at start',
      });
      return;
    }
    if (order.replacements >= 1) {
      order.status = 'rejected';
      this.core.emit({
        type: 'OrderRejected',
        ...base,
        reason: 'placement outcome unknown twice; giving up',
      });
      return;
    }
    order.replacements += 1;
    this.core.options.logger.warn(
      { tag: order.tag, strategyId: order.strategyId, intentId: order.intentId },
      'order with unknown outcome is absent from the book after the grace period; placing it once more under the same intent',
    );
    try {
      await this.core.place({ ...order.intent, strategyId: order.strategyId }, order);
    } catch (err) {
      this.core.onBrokerError({ ...order.intent, strategyId: order.strategyId }, err);
    }
  }

  /**
   * Stopping places nothing again, and an attempt the book shows absent past the grace
   * period must not hold the stop (a `flatten` would never square off its instrument):
   * it counts as not placed from here on. The journal keeps it `unknown`, marked, so
   * the next start still looks for it by tag (in case the book was late) and, if it is
   * absent then too, marks it not placed without placing it again.
   */
  private giveUpAtStop(order: TrackedOrder, now: number): void {
    order.notPlacedAtStop = now;
    this.core.persist(order);
    order.status = 'rejected';
    this.notPlacedAtStop.push(order);
    this.core.options.logger.warn(
      { tag: order.tag, strategyId: order.strategyId, intentId: order.intentId },
      'stopping: a placement whose outcome is unknown is absent from the book after the grace period; counted as not placed (the next start looks for it by tag)',
    );
  }

  /** An earlier attempt surfaced after its re-placement: follow it, and cancel it. */
  private async cancelDuplicate(order: TrackedOrder, record: OrderBookRecord): Promise<void> {
    // A distinct order at the broker: its own fills, counts and prices from here on.
    const intentId = `${order.intentId}#duplicate`;
    const duplicate = trackedOrder({
      strategyId: order.strategyId,
      intentId,
      tag: record.tags,
      variety: order.variety,
      intent: { ...order.intent, id: intentId },
      request: order.request,
      placedAt: order.placedAt,
      orderId: record.id,
      status: 'pending',
      quantity: Number(record.quantity) || order.quantity,
      system: true,
    });
    this.core.tracker.track(duplicate);
    this.core.persist(duplicate);
    this.core.options.logger.error(
      { tag: record.tags, orderId: record.id, replacement: order.tag },
      'an order thought absent turned up after it was placed again: cancelling the duplicate; its fills, if any, count',
    );
    try {
      await this.core.requestCancel(duplicate);
    } catch (err) {
      if (err instanceof SessionError) this.core.pause(err);
    }
  }
}

/** A square-off's exit of an intraday position. */
function isIntradayExit(intent: PlaceIntent): boolean {
  return intent.product === 'I' && isSquareOffExitId(intent.id);
}
