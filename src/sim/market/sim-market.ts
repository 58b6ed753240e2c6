import type { Quote } from '../../api/schemas/quote.ts';
import type { Greeks } from '../../api/schemas/utilities.ts';
import type { MarketSessions } from '../../domain/market-sessions.ts';
import type { Paise } from '../../domain/money.ts';
import type { QuoteMode } from '../../domain/order-params.ts';
import type { DepthBook, PriceBand, VenueMarket } from '../engine/venue-market.ts';
import { DepthBooks } from './depth-books.ts';
import type { InstrumentUniverse } from './instrument-universe.ts';
import { pathSnapshot, type Snapshot } from './market-snapshot.ts';
import { OptionPricer } from './option-pricer.ts';
import { PricePaths } from './price-paths.ts';
import { buildFullQuote } from './quote-builder.ts';
import type { SimInstrument } from './sim-instrument.ts';

/** Market time step of the price paths, ms. */
const STEP_MS = 1_000;

/** Called by {@link SimMarket.advanceTo} as market time passes. */
export interface MarketHooks {
  /** A session opened at `at`. */
  onOpen?(at: number): void;
  /** A session closed at `at`. */
  onClose?(at: number): void;
  /** Prices moved to their state at `at`. */
  onStep?(at: number): void;
}

/** Options of {@link SimMarket}. */
export interface SimMarketOptions {
  universe: InstrumentUniverse;
  hours: MarketSessions;
  seed: number;
  /** Instant the simulation starts at, epoch ms. */
  startAt: number;
  /** Risk-free rate for option pricing; default 6.5%. */
  rate?: number;
}

/**
 * The simulated market: seeded geometric Brownian paths for indexes and equities,
 * stepped once per market second while a session is open, and Black–Scholes options
 * derived from their index on demand. State is a pure function of the seed and the
 * instants it is advanced to, which makes responses reproducible.
 *
 * This class owns the session clock (cursor, open/close) and delegates the rest:
 * {@link PricePaths} (underlying paths and day bookkeeping), {@link OptionPricer}
 * (option prices, greeks, synthetic day), {@link DepthBooks} (per-step depth) and
 * {@link buildFullQuote} (quote assembly).
 */
export class SimMarket implements VenueMarket {
  readonly universe: InstrumentUniverse;
  private readonly hours: MarketSessions;
  private readonly paths: PricePaths;
  private readonly options: OptionPricer;
  private readonly books: DepthBooks;
  private cursor: number;
  private open: boolean;
  private closeAt: number | undefined;

  constructor(options: SimMarketOptions) {
    this.universe = options.universe;
    this.hours = options.hours;
    this.cursor = Math.floor(options.startAt / STEP_MS) * STEP_MS;
    this.open = this.hours.isOpen(this.cursor);
    this.closeAt = this.open ? this.hours.nextClose(this.cursor) : undefined;
    this.paths = new PricePaths(this.universe.underlyings, options.seed, this.cursor);
    this.options = new OptionPricer(this.paths, options.seed, options.rate ?? 0.065);
    this.books = new DepthBooks(options.seed);
  }

  /** Instant of the latest step (or the start), epoch ms: the market's own "now". */
  get time(): number {
    return this.cursor;
  }

  /** True when a session is running at the market's time. */
  get isOpen(): boolean {
    return this.open;
  }

  /**
   * Moves the market to `target` (epoch ms), one step per open second, calling `hooks`
   * on the way. Closed stretches are skipped in one jump. Never moves backwards.
   */
  advanceTo(target: number, hooks: MarketHooks = {}): void {
    const end = Math.floor(target / STEP_MS) * STEP_MS;
    let t = this.cursor;
    while (t < end) {
      const next = t + STEP_MS;
      if (!this.open) {
        if (this.hours.isOpen(next)) {
          this.open = true;
          this.closeAt = this.hours.nextClose(next);
          hooks.onOpen?.(next);
        } else {
          const opensAt = this.hours.nextOpen(next);
          if (opensAt === undefined || opensAt > end) {
            t = end;
            break;
          }
          t = Math.max(next, Math.ceil(opensAt / STEP_MS) * STEP_MS) - STEP_MS;
          if (t < next - STEP_MS || opensAt <= next) t = next;
          continue;
        }
      }
      if (this.closeAt !== undefined && next >= this.closeAt) {
        this.open = false;
        hooks.onClose?.(this.closeAt);
        this.closeAt = undefined;
        continue;
      }
      this.paths.step(next);
      this.cursor = next;
      hooks.onStep?.(next);
      t = next;
    }
    this.cursor = Math.max(this.cursor, t);
  }

  instrument(token: number): SimInstrument | undefined {
    return this.universe.get(token);
  }

  ltp(token: number): Paise {
    return this.snapshot(token).ltp;
  }

  /** An underlying's last price and day volume (its path); undefined for options. */
  trade(token: number): { readonly ltp: Paise; readonly volume: number } | undefined {
    return this.paths.get(token);
  }

  band(token: number): PriceBand {
    return this.snapshot(token).band;
  }

  depth(token: number): DepthBook {
    const step = this.paths.stepCount;
    const hit = this.books.cached(token, step);
    if (hit !== undefined) return hit;
    const book = this.books.build(token, this.universe.get(token), this.snapshot(token), step);
    this.books.set(token, step, book);
    return book;
  }

  setDepth(token: number, book: DepthBook): void {
    this.books.set(token, this.paths.stepCount, book);
  }

  /** Quote of `token` in `mode` at clock instant `now` (epoch ms), or undefined if unknown. */
  quote<M extends QuoteMode>(token: number, mode: M, now: number): Quote<M> | undefined;
  quote(token: number, mode: QuoteMode, now: number): Quote | undefined {
    if (this.universe.get(token) === undefined) return undefined;
    const q = buildFullQuote(token, this.snapshot(token), this.depth(token), now);
    if (mode === 'ltp') return { token, ltp: q.ltp, close: q.close };
    if (mode === 'ohlcv') {
      const { open, high, low, close, ltp, ltt, oi, volume } = q;
      return { token, open, high, low, close, ltp, ltt, oi, volume };
    }
    return q;
  }

  /** Option greeks at the market's time, or undefined when `token` is not an option. */
  greeks(token: number): Greeks | undefined {
    return this.options.greeks(this.universe.get(token), this.cursor);
  }

  private snapshot(token: number): Snapshot {
    const path = this.paths.get(token);
    if (path !== undefined) return pathSnapshot(path);
    return this.options.snapshot(this.universe.get(token), this.cursor);
  }
}
