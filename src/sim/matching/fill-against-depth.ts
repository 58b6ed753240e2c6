import type { DepthEntry } from '../../api/schemas/quote.ts';
import type { Paise } from '../../domain/money.ts';
import type { TransactionType } from '../../domain/order-params.ts';

/** One execution at one price level. */
export interface LevelFill {
  price: Paise;
  quantity: number;
}

/** Outcome of {@link fillAgainstDepth}. */
export interface DepthFillResult {
  /** Executions, best price first; one per level touched. */
  fills: LevelFill[];
  /** Quantity left unfilled. */
  remaining: number;
  /** The opposite side after the fills took their quantity: same length, emptied levels as zeros at the end. */
  levels: DepthEntry[];
}

/**
 * Fills `quantity` against the opposite side of the book, level by level, best price
 * first: `levels` are the asks for a buy and the bids for a sell. With a `limit`, levels
 * worse than the limit are not touched. Quantities are taken in whole lots so that F&O
 * fills stay lot-sized. Pure: the input is not modified.
 *
 * The simulator, paper mode and backtests share this function so that all three fill
 * alike.
 *
 * @example
 * ```ts
 * const asks = [{ price: 80105, quantity: 10, orders: 2 }, { price: 80110, quantity: 50, orders: 3 }];
 * fillAgainstDepth('B', asks, 30).fills; // [{price: 80105, quantity: 10}, {price: 80110, quantity: 20}]
 * ```
 */
export function fillAgainstDepth(
  side: TransactionType,
  levels: readonly DepthEntry[],
  quantity: number,
  limit?: Paise,
  lotSize = 1,
): DepthFillResult {
  const fills: LevelFill[] = [];
  const after = levels.map((l) => ({ ...l }));
  let remaining = quantity;
  for (const level of after) {
    if (remaining <= 0) break;
    if (level.quantity <= 0 || level.price <= 0) continue;
    if (limit !== undefined && (side === 'B' ? level.price > limit : level.price < limit)) break;
    const available = Math.floor(level.quantity / lotSize) * lotSize;
    const take = Math.min(remaining, available);
    if (take <= 0) continue;
    fills.push({ price: level.price, quantity: take });
    remaining -= take;
    const left = level.quantity - take;
    if (left <= 0) {
      level.orders = 0;
      level.price = 0;
      level.quantity = 0;
    } else {
      // Fewer resting orders remain once part of the level is gone; at least one holds the rest.
      level.orders = Math.max(1, Math.round((level.orders * left) / level.quantity));
      level.quantity = left;
    }
  }
  // Emptied levels move to the end so the best remaining price stays at index 0.
  const kept = after.filter((l) => l.quantity > 0);
  while (kept.length < after.length) kept.push({ orders: 0, price: 0, quantity: 0 });
  return { fills, remaining, levels: kept };
}

/** True when the stop `trigger` of a `side` stop order is reached at `ltp`. */
export function isStopTriggered(side: TransactionType, trigger: Paise, ltp: Paise): boolean {
  return side === 'B' ? ltp >= trigger : ltp <= trigger;
}
