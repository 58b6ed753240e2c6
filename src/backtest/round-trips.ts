import type { Paise } from '../domain/money.ts';
import type { FillRecord } from './trade-ledger.ts';

/** A round trip: from flat to flat in one instrument of one strategy. */
export interface RoundTrip {
  strategyId: string;
  token: number;
  symbol: string;
  direction: 'long' | 'short';
  openedAt: number;
  /** Undefined while still open at the end (marked at the last price). */
  closedAt: number | undefined;
  /** Largest absolute position held. */
  quantity: number;
  /** Average entry and exit prices, paise. */
  entryPrice: Paise;
  exitPrice: Paise;
  gross: Paise;
  costs: Paise;
  net: Paise;
}

interface Open {
  trip: RoundTrip;
  net: number;
  openCost: number;
  entryQty: number;
  entryValue: number;
  exitQty: number;
  exitValue: number;
}

/**
 * Groups fills into round trips (flat → position → flat), with realised PnL by average
 * cost (the position book's rule) and each fill's share of its order's charges. A fill
 * that flips the position closes one trip and opens the next with the remainder.
 *
 * @example
 * ```ts
 * const trips = roundTrips(ledger.fills, (f) => ledger.fillCharges(f), lastPrice);
 * ```
 */
export function roundTrips(
  fills: readonly FillRecord[],
  chargesOf: (fill: FillRecord) => Paise,
  lastPrice: (token: number) => Paise | undefined,
): RoundTrip[] {
  const done: RoundTrip[] = [];
  const open = new Map<string, Open>();
  for (const f of fills) {
    const key = `${f.strategyId}\u0000${f.token}`;
    const fee = chargesOf(f);
    let signed = f.side === 'B' ? f.quantity : -f.quantity;
    let o = open.get(key);
    // Each fill's charges go to the trip it belongs to (split on a flip, by quantity).
    let feeLeft = fee;
    while (signed !== 0) {
      if (o === undefined) {
        o = {
          trip: {
            strategyId: f.strategyId,
            token: f.token,
            symbol: f.symbol,
            direction: signed > 0 ? 'long' : 'short',
            openedAt: f.at,
            closedAt: undefined,
            quantity: 0,
            entryPrice: 0,
            exitPrice: 0,
            gross: 0,
            costs: 0,
            net: 0,
          },
          net: 0,
          openCost: 0,
          entryQty: 0,
          entryValue: 0,
          exitQty: 0,
          exitValue: 0,
        };
        open.set(key, o);
      }
      const reducing = o.net !== 0 && Math.sign(o.net) !== Math.sign(signed);
      const qty = reducing ? Math.min(Math.abs(o.net), Math.abs(signed)) : Math.abs(signed);
      const part = Math.round((feeLeft * qty) / Math.abs(signed));
      feeLeft -= part;
      o.trip.costs += part;
      const step = Math.sign(signed) * qty;
      if (reducing) {
        const closedCost = Math.round((o.openCost * qty) / Math.abs(o.net));
        o.trip.gross += -step * f.price - closedCost;
        o.openCost -= closedCost;
        o.exitQty += qty;
        o.exitValue += qty * f.price;
      } else {
        o.openCost += step * f.price;
        o.entryQty += qty;
        o.entryValue += qty * f.price;
      }
      o.net += step;
      o.trip.quantity = Math.max(o.trip.quantity, Math.abs(o.net));
      signed -= step;
      if (o.net === 0) {
        o.trip.closedAt = f.at;
        done.push(finish(o));
        open.delete(key);
        o = undefined;
      }
    }
  }
  for (const o of open.values()) {
    const last = lastPrice(o.trip.token);
    if (last !== undefined) o.trip.gross += o.net * last - o.openCost;
    done.push(finish(o));
  }
  return done.sort((a, b) => a.openedAt - b.openedAt);
}

function finish(o: Open): RoundTrip {
  const t = o.trip;
  t.entryPrice = o.entryQty === 0 ? 0 : Math.round(o.entryValue / o.entryQty);
  t.exitPrice = o.exitQty === 0 ? 0 : Math.round(o.exitValue / o.exitQty);
  t.net = t.gross - t.costs;
  return t;
}
