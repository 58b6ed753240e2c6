/** The label a denial is counted under: a fixed set, so the series stay few. */
export type DenialReason =
  | 'kill_switch'
  | 'lot_size'
  | 'bad_quantity'
  | 'max_order_quantity'
  | 'max_open_orders'
  | 'max_position'
  | 'max_orders_per_day'
  | 'price_band'
  | 'max_order_value'
  | 'trading_window'
  | 'duplicate_intent'
  | 'no_open_order'
  | 'stopping'
  | 'bracket'
  | 'other';

// Matched in order against the engine's denial texts (src/execution/risk/risk-gate.ts,
// trading-window.ts, placement.ts, amendment.ts): the text carries figures (quantities,
// prices, ids) that must never become label values.
const RULES: readonly (readonly [RegExp, DenialReason])[] = [
  [/^kill switch/, 'kill_switch'],
  [/not a multiple of the lot size/, 'lot_size'],
  [/must be a positive whole number/, 'bad_quantity'],
  [/^quantity .* exceeds the per-order limit/, 'max_order_quantity'],
  [/open orders: the limit is/, 'max_open_orders'],
  [/beyond the per-instrument limit/, 'max_position'],
  [/orders placed today: the daily budget/, 'max_orders_per_day'],
  [/outside the price band/, 'price_band'],
  [/^order value .* exceeds the per-order limit/, 'max_order_value'],
  [/after the square-off time/, 'trading_window'],
  [/was already used/, 'duplicate_intent'],
  [/^no open order for intent/, 'no_open_order'],
  [/not kept: stopping/, 'stopping'],
  [/^bracket /, 'bracket'],
];

/**
 * The reason label of an `OrderDenied` event's text.
 *
 * @example
 * ```ts
 * denialReason('kill switch: the daily loss limit was reached; only exits are allowed today'); // 'kill_switch'
 * ```
 */
export function denialReason(text: string): DenialReason {
  for (const [pattern, reason] of RULES) if (pattern.test(text)) return reason;
  return 'other';
}
