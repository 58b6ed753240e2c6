import { istDayNumber, istDayStartOf, istParts } from '../domain/ist.ts';
import type { Paise } from '../domain/money.ts';
import type { Position } from '../domain/order-events.ts';
import type { Product, TransactionType } from '../domain/order-params.ts';

interface Book {
  strategyId: string;
  token: number;
  symbol: string;
  net: number;
  /** Cost of the open quantity, paise (signed like `net`). */
  openCost: number;
  realised: number;
  lastPrice: number;
  /** Signed quantity of intraday (`I`) fills on IST day {@link intradayDay}, part of `net`. */
  intraday: number;
  /** IST day number ({@link istDayNumber}) of {@link intraday}. */
  intradayDay: number;
}

/** An intraday position the book closed because its IST day ended. */
export interface IntradayClosed {
  strategyId: string;
  token: number;
  symbol: string;
  /** Signed quantity that was still open (positive long). */
  quantity: number;
  /** The last price the book had, at which it booked the close (an estimate). */
  price: Paise;
  /** The IST day the position was opened on, `YYYY-MM-DD`. */
  day: string;
  /**
   * Closed while a journal's fills were replayed ({@link PositionBook.replay}): a later
   * day's fill in the journal shows the bot ran after that day and closed it then.
   */
  replayed: boolean;
}

/**
 * An intraday fill the book did not book: its order's day had ended and the book had
 * closed that day's intraday position already (the bot learnt of the fill late).
 */
export type LateIntradayFill = Omit<IntradayClosed, 'quantity'> & {
  /** Signed quantity of the fill (positive bought). */
  quantity: number;
};

/** How a {@link PositionBook} treats intraday positions. */
export interface PositionBookOptions {
  /**
   * The time (epoch ms). With it, intraday (`I`) positions still open when their IST day
   * has ended are closed in the book when it is next read or booked, at its last price:
   * the broker squares intraday positions off (or converts them) at its cut-off before the
   * close, so a bot that missed its own square-off (stopped, or refused) must not take the
   * quantity for its own the next day. Without it, nothing is closed (the journal reader's
   * rows as they were, a book without a clock).
   */
  now?: () => number;
  /** Told of each intraday position closed so. */
  onIntradayClosed?: (closed: IntradayClosed) => void;
  /** Told of each fill not booked because its day's intraday position was closed already. */
  onLateIntradayFill?: (fill: LateIntradayFill) => void;
}

/** `YYYY-MM-DD` of an IST day number. */
function dayText(day: number): string {
  const p = istParts(istDayStartOf(day));
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/**
 * Books a signed quantity at `price` into `b`: realised PnL when it reduces the position
 * (the closed part's cost taken in proportion, rounding within a paisa), cost otherwise.
 */
function book(b: Book, signed: number, price: Paise): void {
  let remaining = signed;
  if (b.net !== 0 && Math.sign(b.net) !== Math.sign(signed)) {
    // `closing` has the fill's sign; realised is proceeds minus the closed part's cost.
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
 * Products are netted per strategy and instrument, but the intraday (`I`) part of each
 * day is known, and closed when its IST day has ended (see {@link PositionBookOptions.now}).
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
  /** IST day the books were last checked for ended intraday positions. */
  private checkedDay = Number.NEGATIVE_INFINITY;
  /** Inside {@link replay}. */
  private replaying = false;

  constructor(private readonly options: PositionBookOptions = {}) {}

  /**
   * Books one fill. `product` and `at` (the time the fill belongs to, epoch ms: for an
   * intraday order, its placement; see `fillDayTime`) place an intraday fill on its IST
   * day; without them the fill counts as a carried product's. An intraday fill of a day
   * whose position the book has closed already is not booked (told, see
   * {@link PositionBookOptions.onLateIntradayFill}): the broker's square-off took the
   * position as it stood, this fill included.
   */
  applyFill(
    strategyId: string,
    token: number,
    symbol: string,
    side: TransactionType,
    quantity: number,
    price: Paise,
    product?: Product,
    at?: number,
  ): void {
    const key = `${strategyId}\u0000${token}`;
    let b = this.books.get(key);
    if (b === undefined) {
      b = {
        strategyId,
        token,
        symbol,
        net: 0,
        openCost: 0,
        realised: 0,
        lastPrice: price,
        intraday: 0,
        intradayDay: 0,
      };
      this.books.set(key, b);
    }
    const signed = side === 'B' ? quantity : -quantity;
    if (product === 'I' && at !== undefined && this.options.now !== undefined) {
      const day = istDayNumber(at);
      if (!this.replaying) this.rollOver();
      // Late: the book holds a later day's intraday fills, or (in a running bot) today
      // has begun and earlier days' positions are closed.
      if (day < b.intradayDay || (!this.replaying && day < this.checkedDay)) {
        this.options.onLateIntradayFill?.({
          strategyId,
          token,
          symbol,
          quantity: signed,
          price,
          day: dayText(day),
          replayed: this.replaying,
        });
        return;
      }
      // A later day's fill (a journal replayed in order, a book not read since the day
      // changed) closes what the day before left open, before it is booked.
      this.closeIntraday(b, day);
      b.intradayDay = day;
      b.intraday += signed;
      // An earlier day's fill (a journal replayed after a read): the next read looks again.
      if (day < this.checkedDay) this.checkedDay = Number.NEGATIVE_INFINITY;
    }
    book(b, signed, price);
    b.lastPrice = price;
  }

  /**
   * Runs `apply`, which books a journal's fills in their order: intraday positions it
   * closes between the journal's days are told as `replayed`.
   */
  replay(apply: () => void): void {
    this.replaying = true;
    try {
      apply();
    } finally {
      this.replaying = false;
    }
  }

  /** Marks every position in `token` to `price`. */
  mark(token: number, price: Paise): void {
    this.rollOver();
    for (const b of this.books.values()) if (b.token === token) b.lastPrice = price;
  }

  /**
   * Calls `visit` with the instrument of each position (once per strategy holding it), in
   * booking order: what {@link positions} would list, without building them. The risk
   * marks walk it every 5 virtual seconds (issue 13: building the positions there was ≈ 8%
   * of a 30-day backtest's allocations).
   */
  forEachToken(visit: (token: number) => void): void {
    this.rollOver();
    for (const b of this.books.values()) visit(b.token);
  }

  /** Positions, of one strategy or of all. */
  positions(strategyId?: string): Position[] {
    this.rollOver();
    const out: Position[] = [];
    for (const b of this.books.values()) {
      if (strategyId !== undefined && b.strategyId !== strategyId) continue;
      out.push(toPosition(b));
    }
    return out;
  }

  /** One strategy's position in one instrument, if it ever had one (a direct lookup). */
  position(strategyId: string, token: number): Position | undefined {
    this.rollOver();
    const b = this.books.get(`${strategyId}\u0000${token}`);
    return b === undefined ? undefined : toPosition(b);
  }

  /**
   * One strategy's open quantity in one instrument (signed), of one product or of all:
   * `I` the day's intraday part, `C`/`M` the carried rest (a token is equity or F&O, so
   * one carried product). The intraday part is bounded as a close is (at most the net,
   * none against it), so the two parts always sum to the net.
   */
  quantityOf(strategyId: string, token: number, product?: Product): number {
    this.rollOver();
    const b = this.books.get(`${strategyId}\u0000${token}`);
    if (b === undefined) return 0;
    if (product === undefined) return b.net;
    const intraday =
      Math.sign(b.net) === Math.sign(b.intraday)
        ? Math.sign(b.intraday) * Math.min(Math.abs(b.intraday), Math.abs(b.net))
        : 0;
    return product === 'I' ? intraday : b.net - intraday;
  }

  /** Sum of realised and unrealised PnL, of one strategy or of all. */
  totals(strategyId?: string): { realised: Paise; unrealised: Paise } {
    this.rollOver();
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

  /**
   * Closes the intraday positions of days that have ended, once per IST day of the clock
   * (a comparison per read otherwise).
   */
  private rollOver(): void {
    const now = this.options.now;
    if (now === undefined) return;
    const today = istDayNumber(now());
    if (today === this.checkedDay) return;
    this.checkedDay = today;
    for (const b of this.books.values()) this.closeIntraday(b, today);
  }

  /**
   * Closes `b`'s intraday quantity at its last price if its day is before `day`. A close
   * only ever reduces the position towards flat: at most the net quantity, and nothing
   * when the net is flat or the other way (a carried product's fills offsetting the
   * intraday ones), so a close never opens or flips a position the bot would then trade.
   */
  private closeIntraday(b: Book, day: number): void {
    if (b.intraday === 0 || b.intradayDay >= day) return;
    const open = b.intraday;
    b.intraday = 0;
    if (Math.sign(b.net) !== Math.sign(open)) return;
    const quantity = Math.sign(open) * Math.min(Math.abs(open), Math.abs(b.net));
    book(b, -quantity, b.lastPrice);
    this.options.onIntradayClosed?.({
      strategyId: b.strategyId,
      token: b.token,
      symbol: b.symbol,
      quantity,
      price: b.lastPrice,
      day: dayText(b.intradayDay),
      replayed: this.replaying,
    });
  }
}
