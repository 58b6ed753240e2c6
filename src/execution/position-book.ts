import type { Paise } from '../domain/money.ts';
import type { Position } from '../domain/order-events.ts';
import type { TransactionType } from '../domain/order-params.ts';

interface Book {
  strategyId: string;
  token: number;
  symbol: string;
  net: number;
  /** Cost of the open quantity, paise (signed like `net`). */
  openCost: number;
  realised: number;
  lastPrice: number;
}

function toPosition(b: Book): Position {
  return {
    strategyId: b.strategyId,
    token: b.token,
    symbol: b.symbol,
    netQuantity: b.net,
    averagePrice: b.net === 0 ? 0 : Math.round(b.openCost / b.net),
    realised: b.realised,
    unrealised: b.net * b.lastPrice - b.openCost,
    lastPrice: b.lastPrice,
  };
}

/**
 * Positions per strategy and instrument from fills, in integer paise. Realised PnL is
 * booked when a fill reduces a position; unrealised marks the rest to the last price.
 *
 * @example
 * ```ts
 * const book = new PositionBook();
 * book.applyFill('sma', 3045, 'SBIN-EQ', 'B', 10, 80000);
 * book.mark(3045, 80100);
 * book.totals(); // { realised: 0, unrealised: 1000 }
 * ```
 */
export class PositionBook {
  private readonly books = new Map<string, Book>();

  /** Books one fill. */
  applyFill(
    strategyId: string,
    token: number,
    symbol: string,
    side: TransactionType,
    quantity: number,
    price: Paise,
  ): void {
    const key = `${strategyId}\u0000${token}`;
    let b = this.books.get(key);
    if (b === undefined) {
      b = { strategyId, token, symbol, net: 0, openCost: 0, realised: 0, lastPrice: price };
      this.books.set(key, b);
    }
    const signed = side === 'B' ? quantity : -quantity;
    let remaining = signed;
    if (b.net !== 0 && Math.sign(b.net) !== Math.sign(signed)) {
      // `closing` has the fill's sign; the closed part's cost is taken in proportion
      // (rounding stays within a paisa) and realised as proceeds minus cost.
      const closing = Math.min(Math.abs(b.net), Math.abs(signed)) * Math.sign(signed);
      const closedCost = Math.round((b.openCost * Math.abs(closing)) / Math.abs(b.net));
      b.realised += -closing * price - closedCost;
      b.openCost -= closedCost;
      b.net += closing;
      remaining -= closing;
    }
    if (remaining !== 0) {
      b.openCost += remaining * price;
      b.net += remaining;
    }
    if (b.net === 0) b.openCost = 0;
    b.lastPrice = price;
  }

  /** Marks every position in `token` to `price`. */
  mark(token: number, price: Paise): void {
    for (const b of this.books.values()) if (b.token === token) b.lastPrice = price;
  }

  /**
   * Calls `visit` with the instrument of each position (once per strategy holding it), in
   * booking order: what {@link positions} would list, without building them. The risk
   * marks walk it every 5 virtual seconds (issue 13: building the positions there was ≈ 8%
   * of a 30-day backtest's allocations).
   */
  forEachToken(visit: (token: number) => void): void {
    for (const b of this.books.values()) visit(b.token);
  }

  /** Positions, of one strategy or of all. */
  positions(strategyId?: string): Position[] {
    const out: Position[] = [];
    for (const b of this.books.values()) {
      if (strategyId !== undefined && b.strategyId !== strategyId) continue;
      out.push(toPosition(b));
    }
    return out;
  }

  /** One strategy's position in one instrument, if it ever had one (a direct lookup). */
  position(strategyId: string, token: number): Position | undefined {
    const b = this.books.get(`${strategyId}\u0000${token}`);
    return b === undefined ? undefined : toPosition(b);
  }

  /** Sum of realised and unrealised PnL, of one strategy or of all. */
  totals(strategyId?: string): { realised: Paise; unrealised: Paise } {
    let realised = 0;
    let unrealised = 0;
    // Straight from the books, as toPosition computes them: the risk marks ask every few
    // virtual seconds, and building positions to sum them was ≈ 7% of a 30-day
    // backtest's allocations (issue 13).
    for (const b of this.books.values()) {
      if (strategyId !== undefined && b.strategyId !== strategyId) continue;
      realised += b.realised;
      unrealised += b.net * b.lastPrice - b.openCost;
    }
    return { realised, unrealised };
  }
}
