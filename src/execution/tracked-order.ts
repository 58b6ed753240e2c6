import type { PlaceOrderRequest } from '../api/schemas/order-requests.ts';
import type { PlaceIntent } from '../domain/intents.ts';
import type { Variety } from '../domain/order-params.ts';

/** Where execution believes an order stands. */
export type TrackedStatus =
  | 'submitting'
  | 'unknown'
  | 'pending'
  | 'open'
  | 'complete'
  | 'rejected'
  | 'cancelled'
  /** Superseded by a re-placement under a new tag (kept for the record). */
  | 'replaced'
  /** Outcome never learned and too old to re-place safely: a person must check. */
  | 'unresolved';

/** Execution's record of one order it placed. */
export interface TrackedOrder {
  strategyId: string;
  intentId: string;
  tag: string;
  variety: Variety;
  intent: PlaceIntent;
  request: PlaceOrderRequest;
  orderId?: string;
  status: TrackedStatus;
  quantity: number;
  filledQuantity: number;
  /**
   * Filled quantity as the order book last showed it (`fillShares`); it may run ahead of
   * `filledQuantity`, which counts only fills the trade book has shown.
   */
  bookFilledQuantity?: number;
  /** Fill ids already booked, so a fill is never counted twice. */
  fills: Set<string>;
  /** When the outcome became unknown, for the grace period. */
  unknownSince?: number;
  /**
   * When a stop counted this attempt as not placed (outcome unknown, absent from the
   * book past the grace period); the next start looks for it by tag, never re-places it.
   */
  notPlacedAtStop?: number;
  /** Tags of earlier attempts (re-placements); a late sighting of one is a duplicate. */
  previousTags?: string[];
  /** Re-placements made for this intent after a confirmed absence. */
  replacements: number;
  /** A cancellation was sent (kill switch, square-off, shutdown); not sent twice. */
  cancelRequested?: boolean;
  /** Refused with 401/403 before reaching the book; re-sent after the pause. */
  sessionRefused?: boolean;
  /** Limit price the book last showed, paise. */
  bookPrice?: number;
  /** When execution first sent it, epoch ms. */
  placedAt: number;
  /** Modifications sent for this order (the service allows 25). */
  modifications: number;
  /** Placed by execution itself (square-off, re-placement), not by a strategy intent. */
  system?: boolean;
  acceptedSeen: boolean;
  openedSeen: boolean;
}

/** True for states no further event can leave. */
export function isFinal(status: TrackedStatus): boolean {
  return (
    status === 'complete' ||
    status === 'rejected' ||
    status === 'cancelled' ||
    status === 'replaced' ||
    status === 'unresolved'
  );
}

/** What a new order needs; everything else starts at its first-sighting default. */
export interface NewTrackedOrder {
  strategyId: string;
  intentId: string;
  tag: string;
  intent: PlaceIntent;
  request: PlaceOrderRequest;
  placedAt: number;
  /** Default: the intent's variety, else `regular`. */
  variety?: Variety;
  /** Default `submitting` (written before the send). */
  status?: TrackedStatus;
  /** Default: the intent's quantity. */
  quantity?: number;
  orderId?: string;
  system?: boolean;
}

/**
 * The one constructor of a {@link TrackedOrder}: nothing filled, nothing seen, no
 * modification or re-placement yet.
 *
 * @example
 * ```ts
 * const order = trackedOrder({ strategyId: 's1', intentId: 'e1', tag, intent, request, placedAt: now });
 * ```
 */
export function trackedOrder(init: NewTrackedOrder): TrackedOrder {
  const { variety, status, quantity, orderId, system } = init;
  // A literal, then keys added one by one, in the order the spread literal this replaces
  // gave them (callers list the identity keys in this order): an object built from an
  // object rest and a spread got a hidden class of its own per order, ≈ 4.6 KB
  // allocated per order and megamorphic reads of every order field (issue 13).
  const order = {
    strategyId: init.strategyId,
    intentId: init.intentId,
    tag: init.tag,
    intent: init.intent,
    request: init.request,
    placedAt: init.placedAt,
    variety: variety ?? init.intent.variety ?? 'regular',
  } as TrackedOrder;
  if (orderId !== undefined) order.orderId = orderId;
  order.status = status ?? 'submitting';
  order.quantity = quantity ?? init.intent.quantity;
  order.filledQuantity = 0;
  order.fills = new Set();
  order.replacements = 0;
  order.modifications = 0;
  order.acceptedSeen = false;
  order.openedSeen = false;
  if (system === true) order.system = true;
  return order;
}

/** A copy of `order` in another state, e.g. the superseded row of a re-placement. */
export function withStatus(order: TrackedOrder, status: TrackedStatus): TrackedOrder {
  return { ...order, status };
}
