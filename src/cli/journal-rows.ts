import { IST_OFFSET_MS, toIstIso } from '../domain/ist.ts';
import { formatRupees } from '../domain/money.ts';
import { bookJournalFills } from '../execution/fill-day.ts';
import type { JournalSnapshot } from '../execution/journal.ts';
import { PositionBook } from '../execution/position-book.ts';
import { workingPrices } from '../execution/working-prices.ts';
import type { LastPrice } from '../runtime/last-prices.ts';

/** One order as `tiqs-runner orders --json` prints it (money as rupee text, '' for none). */
export interface OrderRow {
  strategy: string;
  intent: string;
  tag: string;
  orderId: string;
  symbol: string;
  token: number;
  side: 'B' | 'S';
  quantity: number;
  filled: number;
  type: string;
  product: string;
  /** Limit price now (see `workingPrices`); '' for none. */
  price: string;
  /** Trigger of a stop order now (a cover order's stop leg: its stop-loss); '' for none. */
  triggerPrice: string;
  /** Average fill price from the journal's fills; '' before any. */
  averagePrice: string;
  status: string;
  /** When it was first sent, epoch ms, and the same in ISO IST. */
  placedAt: number;
  placedAtIso: string;
}

/** One position as `tiqs-runner positions --json` prints it. */
export interface PositionRow {
  strategy: string;
  symbol: string;
  token: number;
  net: number;
  average: string;
  realised: string;
  /** The last fill's price (kept from before current prices were shown). */
  lastFill: string;
  /** The last price the journal saw: the bot's last written quote, else the last fill. */
  lastSeen: string;
  lastSeenAt: number;
  lastSeenAtIso: string;
  /** Where `lastSeen` came from. */
  lastSeenFrom: 'quote' | 'fill';
  /** Marked to `lastSeen`. */
  unrealised: string;
}

const rupeeText = (paise: number | undefined): string =>
  paise === undefined ? '' : formatRupees(Math.round(paise));

/** Every order of a journal, oldest placement first, with its average fill price. */
export function orderRows(snapshot: JournalSnapshot): OrderRow[] {
  const fills = new Map<string, { quantity: number; value: number }>();
  for (const f of snapshot.fills) {
    const sum = fills.get(f.tag) ?? { quantity: 0, value: 0 };
    sum.quantity += f.quantity;
    sum.value += f.quantity * f.price;
    fills.set(f.tag, sum);
  }
  return snapshot.orders.map((o) => {
    const { price, trigger } = workingPrices(o);
    const filled = fills.get(o.tag);
    return {
      strategy: o.strategyId,
      intent: o.intentId,
      tag: o.tag,
      orderId: o.orderId ?? '',
      symbol: o.intent.instrument.symbol,
      token: o.intent.instrument.token,
      side: o.intent.side,
      quantity: o.quantity,
      filled: o.filledQuantity,
      type: o.intent.orderType,
      product: o.intent.product,
      price: rupeeText(price),
      triggerPrice: rupeeText(trigger),
      averagePrice:
        filled === undefined || filled.quantity === 0
          ? ''
          : rupeeText(filled.value / filled.quantity),
      status: o.status,
      placedAt: o.placedAt,
      placedAtIso: toIstIso(o.placedAt),
    };
  });
}

/**
 * Positions rebuilt from a journal's fills, marked to the last price it saw: the bot's last
 * written quote of the token (`lastPrices`) when newer than its last fill, else that fill.
 * Intraday positions still open after their IST day (before `now`'s) are closed, as the
 * running bot's book closes them (the broker squared them off at its cut-off).
 */
export function positionRows(
  snapshot: JournalSnapshot,
  lastPrices: ReadonlyMap<number, LastPrice>,
  now: number = Date.now(),
): PositionRow[] {
  const book = new PositionBook({ now: () => now });
  const lastFill = new Map<number, LastPrice>();
  bookJournalFills(book, snapshot, (f) => {
    const seen = lastFill.get(f.token);
    if (seen === undefined || f.at >= seen.at) lastFill.set(f.token, { ltp: f.price, at: f.at });
  });
  const seen = new Map<number, LastPrice & { from: 'quote' | 'fill' }>();
  for (const [token, fill] of lastFill) {
    const quote = lastPrices.get(token);
    const useQuote = quote !== undefined && quote.at >= fill.at;
    seen.set(token, useQuote ? { ...quote, from: 'quote' } : { ...fill, from: 'fill' });
  }
  // The book's last price is its last fill until marked.
  const fillPrice = new Map(
    book.positions().map((p) => [`${p.strategyId}:${p.token}`, p.lastPrice]),
  );
  for (const [token, s] of seen) book.mark(token, s.ltp);
  return book.positions().map((p) => {
    const s = seen.get(p.token) as LastPrice & { from: 'quote' | 'fill' };
    return {
      strategy: p.strategyId,
      symbol: p.symbol,
      token: p.token,
      net: p.netQuantity,
      average: rupeeText(p.averagePrice),
      realised: rupeeText(p.realised),
      lastFill: rupeeText(fillPrice.get(`${p.strategyId}:${p.token}`)),
      lastSeen: rupeeText(s.ltp),
      lastSeenAt: s.at,
      lastSeenAtIso: toIstIso(s.at),
      lastSeenFrom: s.from,
      unrealised: rupeeText(p.unrealised),
    };
  });
}

/** `2026-11-23 09:16:01`: an instant in IST, to the second. */
export function istDateTime(ms: number): string {
  return new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}
