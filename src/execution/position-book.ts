import { istDayNumber } from '../domain/ist.ts';
import type { Paise } from '../domain/money.ts';
import type { Position } from '../domain/order-events.ts';
import type { Product, TransactionType } from '../domain/order-params.ts';
import {
  dayText,
  type FillDay,
  type IntradayClosed,
  type LateIntradayFill,
} from './intraday-fill.ts';

interface Book {
  strategyId: string;
  token: number;
  symbol: string;
  net: number;
  /** Cost of the open quantity, paise (signed like `net`). */
  openCost: number;
  realised: number;
  /** The last price seen: the last fill's, or a later mark's. */
  lastPrice: number;
  /** The last fill's price (marks aside: the same in a running bot and in a replay). */
  lastFill: number;
  /** Signed quantity of intraday (`I`) fills on IST day {@link intradayDay}, part of `net`. */
  intraday: number;
  /** IST day number ({@link istDayNumber}) of the latest intraday fill booked. */
  intradayDay: number;
}

/** How a {@link PositionBook} treats intraday positions. */
export interface PositionBookOptions {
  /**
   * The time (epoch ms). With it, the intraday (`I`) part of a position still open when
   * its IST day has ended is closed in the book when it is next read or booked, at its
   * cost: the broker squares intraday positions off (or converts them) at its cut-off
   * before the close, so a bot that missed its own square-off (stopped, or refused) must
   * not take the quantity for its own the next day. Without it, nothing is closed and no
   * intraday part is kept.
   */
  now?: () => number;
  /**
   * False: the intraday part is kept (for the square-off before the close) but never
   * closed, and late fills are booked: a backtest's paper venue does not square off at a
   * cut-off, so its results stay those of its fills. Default true.
   */
  closeEndedDays?: boolean;
  /** Told of each intraday position closed so. */
  onIntradayClosed?: (closed: IntradayClosed) => void;
  /** Told of each intraday fill not booked because the bot learnt of it a day late. */
  onLateIntradayFill?: (fill: LateIntradayFill) => void;
}

/**
 * Books a signed quantity at `price` into `b`: realised PnL when it reduces the position
 * (the closed part's cost taken in proportion, rounding within a paisa), cost otherwise.
 * `atCost` books the reducing part at its own cost (no realised PnL).
 */
function book(b: Book, signed: number, price: Paise, atCost = false): void {
  let remaining = signed;
  if (b.net !== 0 && Math.sign(b.net) !== Math.sign(signed)) {
    // `closing` has the fill's sign; realised is proceeds minus the closed part's cost.
    const closing = Math.min(Math.abs(b.net), Math.abs(signed)) * Math.sign(signed);
    const closedCost = Math.round((b.openCost * Math.abs(closing)) / Math.abs(b.net));
    if (!atCost) b.realised += -closing * price - closedCost;
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
   * Books one fill. `day` (the fill's order's product, the time the fill belongs to and
   * when the bot learnt of it) places an intraday fill on its IST day; without it, or for
   * another product, the fill counts as a carried product's. An intraday fill the bot
   * learnt of on a later day than its own is not booked (told, see
   * {@link PositionBookOptions.onLateIntradayFill}): that day's position was closed at its
   * end, the broker's square-off taking it as it stood, this fill included. The same rule
   * holds in a replay, so a restarted bot books what the running one did.
   */
  applyFill(
    strategyId: string,
    token: number,
    symbol: string,
    side: TransactionType,
    quantity: number,
    price: Paise,
    day?: FillDay,
  ): void {
    const key = `${strategyId}\u0000${token}`;
    let b = this.books.get(key);
    const signed = side === 'B' ? quantity : -quantity;
    const closing = this.options.closeEndedDays !== false && this.options.now !== undefined;
    // Whatever its product, a fill comes after the close of the days before it was learnt:
    // at run time the clock's, in a replay the fill's own (the same order of events).
    if (closing && !this.replaying) this.rollOver();
    else if (closing && b !== undefined && day !== undefined)
      this.closeIntraday(b, istDayNumber(day.learntAt));
    if (day !== undefined && day.product === 'I' && this.options.now !== undefined) {
      const d = istDayNumber(day.at);
      if (closing && (istDayNumber(day.learntAt) > d || (b !== undefined && d < b.intradayDay))) {
        this.options.onLateIntradayFill?.({
          strategyId,
          token,
          symbol,
          quantity: signed,
          price,
          day: dayText(d),
          replayed: this.replaying,
        });
        return;
      }
      b ??= this.open(key, strategyId, token, symbol, price);
      // A later day's fill (a journal replayed in order, a book not read since the day
      // changed) closes what the day before left open, before it is booked.
      if (closing) this.closeIntraday(b, d);
      b.intradayDay = Math.max(d, b.intradayDay);
      b.intraday += signed;
      // An earlier day's fill (a journal replayed after a read): the next read looks again.
      if (d < this.checkedDay) this.checkedDay = Number.NEGATIVE_INFINITY;
    }
    b ??= this.open(key, strategyId, token, symbol, price);
    book(b, signed, price);
    b.lastPrice = price;
    b.lastFill = price;
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
   * one carried product). The parts are kept apart as the broker keeps them, even when
   * they run against each other.
   */
  quantityOf(strategyId: string, token: number, product?: Product): number {
    this.rollOver();
    const b = this.books.get(`${strategyId}\u0000${token}`);
    if (b === undefined) return 0;
    if (product === undefined) return b.net;
    return product === 'I' ? b.intraday : b.net - b.intraday;
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
    if (now === undefined || this.options.closeEndedDays === false) return;
    const today = istDayNumber(now());
    if (today === this.checkedDay) return;
    this.checkedDay = today;
    for (const b of this.books.values()) this.closeIntraday(b, today);
  }

  /**
   * Closes `b`'s intraday part if its day is before `day`, as the broker's cut-off did:
   * the position moves by exactly that part, at its cost (no PnL booked: the broker's
   * price is not known to the bot), and a part that ran against a carried position at
   * the last fill's price. Marks play no part, so a replay books the same as a running bot.
   */
  private closeIntraday(b: Book, day: number): void {
    if (b.intraday === 0 || b.intradayDay >= day) return;
    const quantity = b.intraday;
    b.intraday = 0;
    const reducing = Math.sign(b.net) === Math.sign(quantity);
    const price = reducing ? Math.round(b.openCost / b.net) : b.lastFill;
    book(b, -quantity, b.lastFill, true);
    this.options.onIntradayClosed?.({
      strategyId: b.strategyId,
      token: b.token,
      symbol: b.symbol,
      quantity,
      price,
      day: dayText(b.intradayDay),
      replayed: this.replaying,
    });
  }

  /** A new, flat book. */
  private open(key: string, strategyId: string, token: number, symbol: string, price: Paise): Book {
    const b: Book = {
      strategyId,
      token,
      symbol,
      net: 0,
      openCost: 0,
      realised: 0,
      lastPrice: price,
      lastFill: price,
      intraday: 0,
      intradayDay: 0,
    };
    this.books.set(key, b);
    return b;
  }
}
