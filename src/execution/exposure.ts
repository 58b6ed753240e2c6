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
 */
export function exposureOf(
  positions: PositionBook,
  tracker: OrderTracker,
  strategyId: string,
  token: number,
  except?: TrackedOrder,
): Exposure {
  const position = positions.positions(strategyId).find((p) => p.token === token)?.netQuantity ?? 0;
  let pending = 0;
  for (const o of tracker.active()) {
    if (o === except || o.strategyId !== strategyId || o.intent.instrument.token !== token)
      continue;
    const remaining = Math.max(0, o.quantity - o.filledQuantity);
    pending += o.intent.side === 'B' ? remaining : -remaining;
  }
  return { position, pending };
}
