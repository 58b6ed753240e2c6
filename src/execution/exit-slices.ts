import type { RiskQuote } from './risk/risk-gate.ts';
import type { RiskLimits } from './risk/risk-limits.ts';
import type { TrackedOrder } from './tracked-order.ts';

/**
 * The quantities a square-off sends to close `quantity` in one instrument: one order
 * when it fits the per-order limits, else slices that each do (`maxOrderQuantity`, and
 * `maxOrderValue` at the last price widened by the market protection and a 1% margin),
 * whole lots each. A position built from several allowed entries can be worth more than
 * one allowed order; sent whole, its exit would be denied and the position left open.
 * Without a price, or when one lot alone is over the limits, the exit goes whole (the
 * risk check then says why it cannot).
 *
 * @example
 * ```ts
 * exitSlices(25, 1, { ltp: 80_000 } as RiskQuote, { ...limits, maxOrderValue: 800_000 });
 * // [9, 9, 7]: ₹8,000 per order at ₹800 with the 1% margin
 * ```
 */
export function exitSlices(
  quantity: number,
  lot: number,
  quote: RiskQuote | undefined,
  limits: Pick<RiskLimits, 'maxOrderQuantity' | 'maxOrderValue' | 'marketProtectionPercent'>,
): number[] {
  let most = limits.maxOrderQuantity;
  if (quote !== undefined && quote.ltp > 0) {
    const price = quote.ltp * (1 + (limits.marketProtectionPercent + 1) / 100);
    most = Math.min(most, Math.floor(limits.maxOrderValue / price));
  }
  most -= most % lot;
  if (quantity <= most || most <= 0) return [quantity];
  const slices: number[] = [];
  for (let left = quantity; left > 0; left -= most) slices.push(Math.min(most, left));
  return slices;
}

/** A square-off's exit: `<id>:<token>`, or a further slice `<id>:<token>.<n>`. */
export function isSquareOffExitId(intentId: string): boolean {
  return /:\d+(?:\.\d+)?$/.test(intentId);
}

/** A square-off's exit order (the framework's, under a `<id>:<token>` id). */
export function isSquareOffExit(order: TrackedOrder): boolean {
  return order.system === true && isSquareOffExitId(order.intentId);
}
