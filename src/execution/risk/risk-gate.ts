import type { PlaceIntent } from '../../domain/intents.ts';
import type { Paise } from '../../domain/money.ts';
import { roundToTick } from '../../domain/money.ts';
import type { RiskLimits } from './risk-limits.ts';

/** What the gate knows of the market for one instrument. */
export interface RiskQuote {
  ltp: Paise;
  /** Price band; 0 where none applies. */
  lowerLimit: Paise;
  upperLimit: Paise;
}

/** The book as the gate sees it when an intent arrives. */
export interface RiskState {
  /** Orders not yet final, of all strategies. */
  openOrders: number;
  /** Net position of the intent's strategy in its instrument. */
  position: number;
  /** Placements made today. */
  placementsToday: number;
  /** Whether the kill switch has tripped today. */
  killed: boolean;
  quote: RiskQuote | undefined;
}

/** The verdict: a (possibly adjusted) intent to send, or a denial with its reason. */
export type RiskVerdict =
  | { ok: true; intent: PlaceIntent; notes: string[] }
  | { ok: false; reason: string };

/**
 * Pre-trade checks on a place intent, in the order a trader would want to hear them.
 * Prices are rounded to the tick (buys down, sells up, never crossing the limit the
 * strategy set) and market orders optionally become protected limit orders.
 *
 * @example
 * ```ts
 * const verdict = checkPlace(intent, state, limits);
 * if (!verdict.ok) emit({ type: 'OrderDenied', reason: verdict.reason, ... });
 * ```
 */
export function checkPlace(intent: PlaceIntent, state: RiskState, limits: RiskLimits): RiskVerdict {
  const notes: string[] = [];
  const lot = intent.instrument.lotSize ?? 1;
  const tick = intent.instrument.tickSize ?? 5;
  const signed = intent.side === 'B' ? intent.quantity : -intent.quantity;
  const after = state.position + signed;
  // Reducing means closer to flat on the same side; going through zero opens a new position.
  const reduces =
    Math.abs(after) < Math.abs(state.position) &&
    (after === 0 || Math.sign(after) === Math.sign(state.position));

  if (!Number.isSafeInteger(intent.quantity) || intent.quantity <= 0) {
    return { ok: false, reason: `quantity ${intent.quantity} must be a positive whole number` };
  }
  if (intent.quantity % lot !== 0) {
    return {
      ok: false,
      reason: `quantity ${intent.quantity} is not a multiple of the lot size ${lot}`,
    };
  }
  if (state.killed && !reduces) {
    return {
      ok: false,
      reason: 'kill switch: the daily loss limit was reached; only exits are allowed today',
    };
  }
  if (intent.quantity > limits.maxOrderQuantity) {
    return {
      ok: false,
      reason: `quantity ${intent.quantity} exceeds the per-order limit ${limits.maxOrderQuantity}`,
    };
  }
  // The count limits hold new risk back; an exit (a stop, a target, a square-off) is
  // always let through, or a position could be left without its way out.
  if (state.openOrders >= limits.maxOpenOrders && !reduces) {
    return {
      ok: false,
      reason: `${state.openOrders} open orders: the limit is ${limits.maxOpenOrders}`,
    };
  }
  if (Math.abs(after) > limits.maxPositionPerInstrument && !reduces) {
    return {
      ok: false,
      reason: `position would be ${after}, beyond the per-instrument limit ${limits.maxPositionPerInstrument}`,
    };
  }
  if (state.placementsToday >= limits.maxOrdersPerDay && !reduces) {
    return {
      ok: false,
      reason: `${state.placementsToday} orders placed today: the daily budget is ${limits.maxOrdersPerDay}`,
    };
  }

  // Copied on the first change only: callers copy the verdict's intent before keeping it.
  let adjusted: PlaceIntent = intent;
  const buy = intent.side === 'B';
  const band = state.quote !== undefined && state.quote.upperLimit > 0 ? state.quote : undefined;

  if (
    adjusted.orderType === 'MKT' &&
    limits.marketProtectionPercent > 0 &&
    state.quote !== undefined
  ) {
    const ltp = state.quote.ltp;
    const offset = Math.ceil((ltp * limits.marketProtectionPercent) / 100);
    let price = roundToTick(buy ? ltp + offset : ltp - offset, tick, buy ? 'down' : 'up');
    if (band !== undefined) price = Math.min(Math.max(price, band.lowerLimit), band.upperLimit);
    adjusted = { ...adjusted, orderType: 'LMT', price };
    notes.push(`market order protected as a limit at ${price} paise`);
  }

  for (const field of ['price', 'triggerPrice', 'bookLossPrice'] as const) {
    const value = adjusted[field];
    if (value === undefined) continue;
    // Round towards safety: a buy never pays more, a sell never takes less, than asked.
    const rounded = roundToTick(value, tick, field === 'price' ? (buy ? 'down' : 'up') : 'nearest');
    if (rounded !== value) {
      notes.push(`${field} ${value} rounded to the tick: ${rounded}`);
      adjusted = { ...adjusted, [field]: rounded };
    }
    if (band !== undefined && (rounded < band.lowerLimit || rounded > band.upperLimit)) {
      return {
        ok: false,
        reason: `${field} ${rounded} paise is outside the price band ${band.lowerLimit}-${band.upperLimit}`,
      };
    }
  }

  const reference = adjusted.price ?? state.quote?.ltp;
  if (reference !== undefined) {
    const value = reference * adjusted.quantity;
    if (value > limits.maxOrderValue) {
      return {
        ok: false,
        reason: `order value ${value} paise exceeds the per-order limit ${limits.maxOrderValue}`,
      };
    }
  }
  return { ok: true, intent: adjusted, notes };
}
