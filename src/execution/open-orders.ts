import type { PlaceIntent, RoutedIntent } from '../domain/intents.ts';
import type { OpenOrder } from '../domain/order-events.ts';
import { entryIntent } from './brackets/bracket-entry.ts';
import { isFinal, type TrackedOrder } from './tracked-order.ts';
import { wirePrice } from './working-prices.ts';

/**
 * A tracked order as a strategy sees it. Prices follow modifications: the book's limit
 * price when the tracker has seen one, else the last request sent (modify requests
 * update it), else the intent's.
 */
function toOpenOrder(o: TrackedOrder): OpenOrder {
  const limit = o.intent.orderType === 'LMT' || o.intent.orderType === 'SL-LMT';
  const stop = o.intent.orderType === 'SL-LMT' || o.intent.orderType === 'SL-MKT';
  const price = limit ? (o.bookPrice ?? wirePrice(o.request.price) ?? o.intent.price) : undefined;
  const triggerPrice = stop
    ? (wirePrice(o.request.triggerPrice) ?? o.intent.triggerPrice)
    : undefined;
  return {
    intentId: o.intentId,
    token: o.intent.instrument.token,
    symbol: o.intent.instrument.symbol,
    side: o.intent.side,
    quantity: o.quantity,
    filledQuantity: o.filledQuantity,
    orderType: o.request.order,
    product: o.intent.product,
    ...(price === undefined ? {} : { price }),
    ...(triggerPrice === undefined ? {} : { triggerPrice }),
    status: o.status as OpenOrder['status'],
    system: o.system === true,
  };
}

/** A placement waiting for the open (or a pause) as a working order not yet sent. */
function deferredOrder(intent: PlaceIntent): OpenOrder {
  return {
    intentId: intent.id,
    token: intent.instrument.token,
    symbol: intent.instrument.symbol,
    side: intent.side,
    quantity: intent.quantity,
    filledQuantity: 0,
    orderType: intent.orderType,
    product: intent.product,
    ...(intent.price === undefined ? {} : { price: intent.price }),
    ...(intent.triggerPrice === undefined ? {} : { triggerPrice: intent.triggerPrice }),
    status: 'deferred',
    system: false,
  };
}

/**
 * The working orders of `strategyId` (in `token`, or all): the tracker's non-final
 * orders in placement order, then its placements still deferred.
 *
 * @example
 * ```ts
 * openOrdersOf(tracker.active(), deferred.waiting(), 'sma', 3045).filter((o) => o.side === 'B');
 * ```
 */
export function openOrdersOf(
  active: Iterable<TrackedOrder>,
  deferred: readonly RoutedIntent[],
  strategyId: string,
  token?: number,
): OpenOrder[] {
  const out: OpenOrder[] = [];
  for (const o of active) {
    if (o.strategyId !== strategyId || isFinal(o.status)) continue;
    if (token !== undefined && o.intent.instrument.token !== token) continue;
    out.push(toOpenOrder(o));
  }
  for (const i of deferred) {
    if (i.strategyId !== strategyId) continue;
    // A bracket deferred whole (a pause, the start's reconciliation) shows as its entry,
    // so a strategy does not send it twice.
    const place = i.kind === 'bracket' ? entryIntent(i) : i.kind === 'place' ? i : undefined;
    if (place === undefined) continue;
    if (token === undefined || place.instrument.token === token) out.push(deferredOrder(place));
  }
  return out;
}
