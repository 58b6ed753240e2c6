import { SessionError } from '../api/errors/session-error.ts';
import type { CancelIntent, ModifyIntent, PlaceIntent } from '../domain/intents.ts';
import { ocoGroupOf } from './brackets/leg-ids.ts';
import type { EngineCore } from './engine-core.ts';
import { exposureOf } from './exposure.ts';
import { checkPlace } from './risk/risk-gate.ts';
import { isFinal, type TrackedOrder } from './tracked-order.ts';
import { toModifyRequest } from './wire-order.ts';

/**
 * Changing orders already at the broker: modifications (risk-checked like a
 * placement, and turned into cancel-and-replace past the service's limit) and cancels.
 */
export class Amendments {
  constructor(
    private readonly core: EngineCore,
    /** Modifications the service allows per order. */
    private readonly maxModifications: number,
  ) {}

  /** Modifies an open order, or cancels and re-places it past the service's limit. */
  async modify(intent: ModifyIntent & { strategyId: string }): Promise<void> {
    const order = this.core.tracker.byIntent(intent.strategyId, intent.target);
    if (order === undefined || order.orderId === undefined || isFinal(order.status)) {
      this.core.deny(intent, `no open order for intent "${intent.target}"`);
      return;
    }
    const changed: PlaceIntent = {
      ...order.intent,
      quantity: intent.quantity ?? order.quantity,
      ...(intent.price === undefined ? {} : { price: intent.price }),
      ...(intent.triggerPrice === undefined ? {} : { triggerPrice: intent.triggerPrice }),
      ...(intent.orderType === undefined ? {} : { orderType: intent.orderType }),
    };
    // A modification is an order too: the same checks, with this order's own
    // remainder taken out of the exposure it adds to.
    const exposure = exposureOf(
      this.core.positions,
      this.core.tracker,
      intent.strategyId,
      order.intent.instrument.token,
      order,
      ocoGroupOf(order.intentId),
    );
    const verdict = checkPlace(
      changed,
      {
        openOrders: this.core.tracker.active().length - 1,
        position:
          exposure.position +
          exposure.pending +
          (order.intent.side === 'B' ? order.filledQuantity : -order.filledQuantity),
        placementsToday: 0,
        killed: this.core.killed && changed.quantity > order.quantity,
        quote: this.core.options.quote?.(order.intent.instrument.token),
      },
      this.core.limits,
    );
    if (!verdict.ok) {
      this.core.deny(intent, verdict.reason);
      return;
    }
    const checked: ModifyIntent = {
      ...intent,
      quantity: verdict.intent.quantity,
      ...(verdict.intent.price === undefined ? {} : { price: verdict.intent.price }),
      ...(verdict.intent.triggerPrice === undefined
        ? {}
        : { triggerPrice: verdict.intent.triggerPrice }),
    };
    if (order.modifications >= this.maxModifications) {
      await this.cancelAndReplace(order, { ...verdict.intent, strategyId: intent.strategyId });
      return;
    }
    const request = toModifyRequest(order.request, checked);
    order.modifications += 1;
    this.core.persist(order);
    await this.core.options.broker.modifyOrder(order.variety, order.orderId, request);
    order.request = { ...order.request, ...request };
    this.core.persist(order);
  }

  /**
   * The service refuses a 26th modification: cancel, learn what filled meanwhile from
   * the order's own history, and place the changed remainder anew.
   */
  private async cancelAndReplace(
    order: TrackedOrder,
    changed: PlaceIntent & { strategyId: string },
  ): Promise<void> {
    const orderId = order.orderId ?? '';
    this.core.options.logger.info(
      { tag: order.tag, modifications: order.modifications },
      'modification limit reached: cancelling and placing anew',
    );
    // Marked before the send: a poll while the cancel is on its way must see it as ours.
    order.cancelRequested = true;
    await this.core.options.broker.cancelOrder(order.variety, orderId);
    const [latest] = await this.core.options.broker.orderHistory(orderId);
    const filled = Math.max(order.filledQuantity, Number(latest?.fillShares || '0'));
    const remaining = changed.quantity - filled;
    if (remaining <= 0) return;
    await this.core.place({ ...changed, quantity: remaining }, undefined, true);
    // Placed as the framework's (so its intent id may be used again), but it stays the
    // strategy's order: `target()` counts and cancels it as it did the one it replaces.
    const replacement = this.core.tracker.byIntent(changed.strategyId, changed.id);
    if (replacement !== undefined && replacement !== order && replacement.system === true) {
      replacement.system = false;
      this.core.persist(replacement);
    }
  }

  /** Cancels the open order an intent targets. */
  async cancel(intent: CancelIntent & { strategyId: string }): Promise<void> {
    const order = this.core.tracker.byIntent(intent.strategyId, intent.target);
    if (order === undefined || order.orderId === undefined || isFinal(order.status)) {
      this.core.deny(intent, `no open order for intent "${intent.target}"`);
      return;
    }
    // Marked, so exposure no longer counts it (a bracket's leg gives way to the exit
    // placed in its stead); cleared again if the cancel fails.
    order.cancelRequested = true;
    try {
      await this.core.options.broker.cancelOrder(order.variety, order.orderId);
    } catch (err) {
      order.cancelRequested = false;
      throw err;
    }
  }

  /**
   * Asks to cancel an order, once at a time. A failure is logged, not thrown (but for
   * a refused session): the order may have filled or been cancelled meanwhile, and the
   * next poll tells which; a later request may try again.
   */
  async requestCancel(order: TrackedOrder): Promise<void> {
    if (order.orderId === undefined || order.cancelRequested === true) return;
    order.cancelRequested = true;
    try {
      await this.core.options.broker.cancelOrder(order.variety, order.orderId);
    } catch (err) {
      order.cancelRequested = false;
      if (err instanceof SessionError) throw err;
      this.core.options.logger.warn(
        { err, tag: order.tag },
        'cancel failed; the next poll will tell where the order stands',
      );
    }
  }
}
