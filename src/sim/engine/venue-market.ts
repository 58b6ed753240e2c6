import type { DepthEntry } from '../../api/schemas/quote.ts';
import type { Paise } from '../../domain/money.ts';
import type { SimInstrument } from '../market/sim-instrument.ts';
import type { BarTouch } from '../matching/bar-fill.ts';
import type { SimOrder } from './sim-order.ts';

/** Both sides of the book, best level first. Empty levels are all zeros. */
export interface DepthBook {
  bids: DepthEntry[];
  asks: DepthEntry[];
}

/** Price band of an instrument; 0 where none applies. */
export interface PriceBand {
  lower: Paise;
  upper: Paise;
}

/**
 * What the order engine reads from a market. The simulator's {@link SimMarket} provides
 * it; paper mode and backtests can provide their own (live quotes, replayed data) and
 * reuse the same engine and fill logic.
 */
export interface VenueMarket {
  instrument(token: number): SimInstrument | undefined;
  /** Last traded price now. */
  ltp(token: number): Paise;
  band(token: number): PriceBand;
  /**
   * Depth now. The engine takes liquidity by writing the remaining levels back with
   * {@link VenueMarket.setDepth}, so two orders in the same instant do not both fill
   * against the same quantity.
   */
  depth(token: number): DepthBook;
  /** Replaces the current depth of `token` (after fills consumed part of it). */
  setDepth(token: number, book: DepthBook): void;
  /**
   * A candle replay's bar fill model (`bar-fill.ts`): how a resting order fared on the
   * price path since it last looked; undefined to fill against the depth as usual.
   */
  touched?(order: SimOrder): BarTouch | undefined;
}
