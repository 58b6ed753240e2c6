import type { PlaceIntent } from '../domain/intents.ts';
import type { Product } from '../domain/order-params.ts';
import { ocoGroupOf } from './brackets/leg-ids.ts';
import type { OrderTracker } from './order-tracker.ts';
import type { PositionBook } from './position-book.ts';
import type { TrackedOrder } from './tracked-order.ts';

/** A strategy's net position in an instrument and what its working orders would add. */
export interface Exposure {
  position: number;
  pending: number;
}

/**
 * Net position of a strategy in an instrument, counting what its working orders
 * would still add (their unfilled remainder), so several pending exits cannot each
 * pass as "reducing". `except` leaves one order out (the one being modified or re-placed).
 * A bracket's stop and target close the same quantity, only one of them can: a group's
 * working legs count once (the largest), and not at all for `group`, the group of the
 * order being placed or modified (it stands for the group). `orders` are the tracker's
 * working orders, passed in by a caller that needs them too (one scan per placement).
 * `product` counts that product's part and orders alone (the trading window's intraday
 * exposure: an intraday sell against a delivery holding opens an intraday short).
 */
export function exposureOf(
  positions: PositionBook,
  tracker: OrderTracker,
  strategyId: string,
  token: number,
  except?: TrackedOrder,
  group?: string,
  orders: readonly TrackedOrder[] = tracker.active(),
  product?: Product,
): Exposure {
  const position = positions.quantityOf(strategyId, token, product);
  let pending = 0;
  /** Per one-cancels-other group, its largest signed remainder (made for the first leg). */
  let legs: Map<string, number> | undefined;
  for (const o of orders) {
    if (o === except || o.strategyId !== strategyId || o.intent.instrument.token !== token)
      continue;
    if (product !== undefined && o.intent.product !== product) continue;
    const remaining = Math.max(0, o.quantity - o.filledQuantity);
    const signed = o.intent.side === 'B' ? remaining : -remaining;
    const oco = ocoGroupOf(o.intentId);
    // A leg being cancelled (a square-off, the kill switch) gives way to the exit placed
    // in its stead: counted, it would make that exit look like a new position.
    if (oco !== undefined && o.cancelRequested === true) continue;
    if (oco === undefined) pending += signed;
    else if (oco !== group) {
      legs ??= new Map();
      if (Math.abs(signed) > Math.abs(legs.get(oco) ?? 0)) legs.set(oco, signed);
    }
  }
  if (legs !== undefined) for (const signed of legs.values()) pending += signed;
  return { position, pending };
}

/**
 * A placement's exposure in one product's part of its strategy's position in its
 * instrument (position and what working orders of that product add): the trading
 * window's intraday part, a square-off exit's own part.
 */
export function partExposure(
  positions: PositionBook,
  tracker: OrderTracker,
  intent: PlaceIntent & { strategyId: string },
  except: TrackedOrder | undefined,
  orders: readonly TrackedOrder[],
  product: Product,
): number {
  const { position, pending } = exposureOf(
    positions,
    tracker,
    intent.strategyId,
    intent.instrument.token,
    except,
    ocoGroupOf(intent.id),
    orders,
    product,
  );
  return position + pending;
}
