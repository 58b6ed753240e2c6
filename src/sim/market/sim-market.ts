import type { FullQuote, Quote } from '../../api/schemas/quote.ts';
import type { Greeks } from '../../api/schemas/utilities.ts';
import { type Paise, roundToTick } from '../../domain/money.ts';
import type { QuoteMode } from '../../domain/order-params.ts';
import { blackScholes } from '../black-scholes.ts';
import type { DepthBook, MarketView, PriceBand } from '../engine/market-view.ts';
import { DAY_MS, istMidnight } from '../ist-time.ts';
import type { MarketHours } from '../market-hours.ts';
import { hashInts, Prng } from '../prng.ts';
import type { InstrumentUniverse } from './instrument-universe.ts';
import type { SimInstrument } from './sim-instrument.ts';

/** Market time step of the price paths, ms. */
export const STEP_MS = 1_000;
const YEAR_MS = 365 * DAY_MS;
/** Open seconds in a trading year: 252 days of 6h15m. */
const OPEN_SECONDS_PER_YEAR = 252 * 22_500;
const EQUITY_BAND = 0.2;
const EMPTY = { orders: 0, price: 0, quantity: 0 } as const;

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
  hours: MarketHours;
  seed: number;
  /** Instant the simulation starts at, epoch ms. */
  startAt: number;
  /** Risk-free rate for option pricing; default 6.5%. */
  rate?: number;
}

interface PathState {
  inst: SimInstrument;
  sigma: number;
  logPrice: number;
  ltp: Paise;
  prevClose: Paise;
  open: Paise;
  high: Paise;
  low: Paise;
  volume: number;
  turnover: number;
  ltq: number;
  /** Last trade, epoch ms; 0 before the first. */
  ltt: number;
  band: PriceBand;
}

/**
 * The simulated market: seeded geometric Brownian paths for indexes and equities,
 * stepped once per market second while a session is open, and Black–Scholes options
 * derived from their index on demand. State is a pure function of the seed and the
 * instants it is advanced to, which makes responses reproducible.
 */
export class SimMarket implements MarketView {
  readonly universe: InstrumentUniverse;
  private readonly hours: MarketHours;
  private readonly seed: number;
  private readonly rate: number;
  private readonly rng: Prng;
  private readonly paths = new Map<number, PathState>();
  private readonly books = new Map<number, { step: number; book: DepthBook }>();
  private cursor: number;
  private open: boolean;
  private closeAt: number | undefined;
  private dayStart: number;
  /** Instant of the previous day's last step (option `close` is priced there). */
  private prevCloseAt: number;
  /** Instant of today's first step (option `open` is priced there). */
  private dayOpenAt: number;
  private stepCount = 0;
  private lastStepAt: number;
  private stepsToday = 0;

  constructor(options: SimMarketOptions) {
    this.universe = options.universe;
    this.hours = options.hours;
    this.seed = options.seed;
    this.rate = options.rate ?? 0.065;
    this.rng = new Prng(hashInts(options.seed, 0x5eed));
    this.cursor = Math.floor(options.startAt / STEP_MS) * STEP_MS;
    this.dayStart = istMidnight(this.cursor);
    this.prevCloseAt = this.cursor;
    this.dayOpenAt = this.cursor;
    this.lastStepAt = this.cursor;
    this.open = this.hours.isOpen(this.cursor);
    this.closeAt = this.open ? this.hours.nextClose(this.cursor) : undefined;
    for (const inst of this.universe.underlyings) {
      const base = inst.basePrice ?? 10_000;
      const vol = inst.vol ?? 0.2;
      const state: PathState = {
        inst,
        sigma: vol / Math.sqrt(OPEN_SECONDS_PER_YEAR),
        logPrice: Math.log(base / 100),
        ltp: base,
        prevClose: base,
        open: base,
        high: base,
        low: base,
        volume: 0,
        turnover: 0,
        ltq: 0,
        ltt: 0,
        band: { lower: 0, upper: 0 },
      };
      state.band = this.equityBand(state);
      this.paths.set(inst.token, state);
    }
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
      this.step(next);
      this.cursor = next;
      hooks.onStep?.(next);
      t = next;
    }
    this.cursor = Math.max(this.cursor, t);
  }

  private step(at: number): void {
    const rollover = at >= this.dayStart + DAY_MS;
    if (rollover) {
      this.dayStart = istMidnight(at);
      this.prevCloseAt = this.lastStepAt;
      this.stepsToday = 0;
    }
    if (rollover || this.stepsToday === 0) this.dayOpenAt = at;
    this.stepCount++;
    this.stepsToday++;
    this.lastStepAt = at;
    for (const s of this.paths.values()) {
      if (rollover) {
        s.prevClose = s.ltp;
        s.volume = 0;
        s.turnover = 0;
        s.band = this.equityBand(s);
      }
      s.logPrice += s.sigma * this.rng.normal() - 0.5 * s.sigma * s.sigma;
      let price = Math.round(Math.exp(s.logPrice) * 100);
      price = roundToTick(Math.max(price, s.inst.tick), s.inst.tick);
      if (s.band.upper > 0 && (price > s.band.upper || price < s.band.lower)) {
        // Circuit limit: the price pins at the band instead of leaving it.
        price = Math.min(Math.max(price, s.band.lower), s.band.upper);
        s.logPrice = Math.log(price / 100);
      }
      s.ltp = price;
      if (rollover || this.stepsToday === 1) {
        s.open = price;
        s.high = price;
        s.low = price;
      }
      s.high = Math.max(s.high, price);
      s.low = Math.min(s.low, price);
      if (s.inst.kind === 'equity') {
        s.ltq = s.inst.lotSize * (1 + this.rng.int(200));
        s.volume += s.ltq;
        s.turnover += s.ltq * price;
        s.ltt = at;
      } else {
        s.ltt = at;
      }
    }
  }

  private equityBand(s: PathState): PriceBand {
    if (s.inst.kind !== 'equity') return { lower: 0, upper: 0 };
    const tick = s.inst.tick;
    return {
      lower: roundToTick(Math.round(s.prevClose * (1 - EQUITY_BAND)), tick, 'up'),
      upper: roundToTick(Math.round(s.prevClose * (1 + EQUITY_BAND)), tick, 'down'),
    };
  }

  instrument(token: number): SimInstrument | undefined {
    return this.universe.get(token);
  }

  ltp(token: number): Paise {
    return this.snapshot(token).ltp;
  }

  band(token: number): PriceBand {
    return this.snapshot(token).band;
  }

  depth(token: number): DepthBook {
    const hit = this.books.get(token);
    if (hit !== undefined && hit.step === this.stepCount) return hit.book;
    const book = this.freshDepth(token);
    this.books.set(token, { step: this.stepCount, book });
    return book;
  }

  setDepth(token: number, book: DepthBook): void {
    this.books.set(token, { step: this.stepCount, book });
  }

  private freshDepth(token: number): DepthBook {
    const inst = this.universe.get(token);
    const empty = (): DepthBook => ({
      bids: Array.from({ length: 5 }, () => ({ ...EMPTY })),
      asks: Array.from({ length: 5 }, () => ({ ...EMPTY })),
    });
    if (inst === undefined || inst.kind === 'index') return empty();
    const { ltp, band } = this.snapshot(token);
    const rng = new Prng(hashInts(this.seed, token, this.stepCount));
    const lots = inst.kind === 'option' ? 30 : 400;
    const level = (price: number): { orders: number; price: number; quantity: number } => {
      if (price <= 0 || (band.upper > 0 && (price > band.upper || price < band.lower))) {
        return { ...EMPTY };
      }
      const n = 1 + rng.int(lots);
      return { orders: 1 + rng.int(Math.min(n, 15)), price, quantity: n * inst.lotSize };
    };
    const book = empty();
    for (let i = 0; i < 5; i++) {
      book.bids[i] = level(ltp - (i + 1) * inst.tick);
      book.asks[i] = level(ltp + (i + 1) * inst.tick);
    }
    return book;
  }

  /** Quote of `token` in `mode` at clock instant `now` (epoch ms), or undefined if unknown. */
  quote<M extends QuoteMode>(token: number, mode: M, now: number): Quote<M> | undefined;
  quote(token: number, mode: QuoteMode, now: number): Quote | undefined {
    if (this.universe.get(token) === undefined) return undefined;
    const q = this.fullQuote(token, now);
    if (mode === 'ltp') return { token, ltp: q.ltp, close: q.close };
    if (mode === 'ohlcv') {
      const { open, high, low, close, ltp, ltt, oi, volume } = q;
      return { token, open, high, low, close, ltp, ltt, oi, volume };
    }
    return q;
  }

  private fullQuote(token: number, now: number): FullQuote {
    const s = this.snapshot(token);
    const book = this.depth(token);
    const netChange = s.ltp - s.prevClose;
    const sum = (side: typeof book.bids): number => side.reduce((a, l) => a + l.quantity, 0);
    return {
      token,
      asks: book.asks.map((l) => ({ ...l })),
      bids: book.bids.map((l) => ({ ...l })),
      avgPrice: s.avgPrice,
      open: s.open,
      high: s.high,
      low: s.low,
      close: s.prevClose,
      ltp: s.ltp,
      ltq: s.ltq,
      ltt: Math.floor(s.ltt / 1000),
      time: Math.floor(now / 1000),
      netChange,
      netChangeIndicator: netChange > 0 ? 43 : netChange < 0 ? 45 : 32,
      oi: s.oi,
      oiDayHigh: s.oiDayHigh,
      oiDayLow: s.oiDayLow,
      lowerLimit: s.band.lower,
      upperLimit: s.band.upper,
      totalBuyQty: sum(book.bids),
      totalSellQty: sum(book.asks),
      volume: s.volume,
    };
  }

  /** Option greeks at the market's time, or undefined when `token` is not an option. */
  greeks(token: number): Greeks | undefined {
    const inst = this.universe.get(token);
    const terms = inst?.option;
    const under = terms === undefined ? undefined : this.paths.get(terms.underlying);
    if (terms === undefined || under === undefined) return undefined;
    const spot = under.ltp / 100;
    const vol = this.impliedVol(under, terms.strike / 100, spot);
    const g = blackScholes({
      type: terms.optionType,
      spot,
      strike: terms.strike / 100,
      years: (terms.expiresAt - this.cursor) / YEAR_MS,
      vol,
      rate: this.rate,
    });
    const r6 = (x: number): number => Math.round(x * 1e6) / 1e6;
    return {
      iv: r6(vol),
      delta: r6(g.delta),
      gamma: r6(g.gamma),
      theta: r6(g.theta),
      vega: r6(g.vega),
    };
  }

  /** A gentle smile: wings and downside strikes carry more volatility than the money. */
  private impliedVol(under: PathState, strike: number, spot: number): number {
    const m = Math.log(strike / spot);
    return Math.max(0.05, (under.inst.vol ?? 0.15) + 2 * m * m - 0.15 * m);
  }

  private optionPrice(inst: SimInstrument, spotPaise: Paise, at: number): Paise {
    const terms = inst.option;
    const under = terms === undefined ? undefined : this.paths.get(terms.underlying);
    if (terms === undefined || under === undefined) return inst.tick;
    const spot = spotPaise / 100;
    const { price } = blackScholes({
      type: terms.optionType,
      spot,
      strike: terms.strike / 100,
      years: (terms.expiresAt - at) / YEAR_MS,
      vol: this.impliedVol(under, terms.strike / 100, spot),
      rate: this.rate,
    });
    return Math.max(inst.tick, roundToTick(Math.round(price * 100), inst.tick));
  }

  private snapshot(token: number): Snapshot {
    const path = this.paths.get(token);
    if (path !== undefined) {
      return {
        ...path,
        avgPrice: path.volume > 0 ? Math.round(path.turnover / path.volume) : 0,
        oi: 0,
        oiDayHigh: 0,
        oiDayLow: 0,
      };
    }
    const inst = this.universe.get(token);
    const terms = inst?.option;
    const under = terms === undefined ? undefined : this.paths.get(terms.underlying);
    if (inst === undefined || terms === undefined || under === undefined) {
      return { ...ZERO_SNAPSHOT };
    }
    const price = (spot: Paise, at: number): Paise => this.optionPrice(inst, spot, at);
    const prevClose = price(under.prevClose, this.prevCloseAt);
    const band = {
      lower: inst.tick,
      upper: roundToTick(prevClose * 3 + Math.round(under.prevClose / 100), inst.tick, 'up'),
    };
    const clamp = (p: Paise): Paise => Math.min(Math.max(p, band.lower), band.upper);
    const ltp = clamp(price(under.ltp, this.cursor));
    const open = this.stepsToday > 0 ? clamp(price(under.open, this.dayOpenAt)) : prevClose;
    const atHigh = clamp(price(under.high, this.cursor));
    const atLow = clamp(price(under.low, this.cursor));
    const [hi, lo] = terms.optionType === 'CE' ? [atHigh, atLow] : [atLow, atHigh];
    const moneyness = Math.abs(Math.log(terms.strike / under.prevClose));
    const weight = 0.2 + 3 * Math.exp(-moneyness * 40);
    const step = this.stepsToday;
    const baseOi =
      inst.lotSize * Math.round((200 + (hashInts(this.seed, inst.token) % 5000)) * weight);
    const oi = baseOi + inst.lotSize * Math.floor(step / 300);
    return {
      ltp,
      prevClose,
      open,
      high: Math.max(open, ltp, hi),
      low: Math.min(open, ltp, lo),
      volume: inst.lotSize * Math.floor(step * weight),
      avgPrice: step > 0 ? roundToTick(Math.round((open + ltp) / 2), inst.tick) : 0,
      ltq: step > 0 ? inst.lotSize * (1 + (hashInts(this.seed, inst.token, step) % 10)) : 0,
      ltt: under.ltt,
      band,
      oi,
      oiDayHigh: oi,
      oiDayLow: baseOi,
    };
  }
}

interface Snapshot {
  ltp: Paise;
  prevClose: Paise;
  open: Paise;
  high: Paise;
  low: Paise;
  volume: number;
  avgPrice: Paise;
  ltq: number;
  ltt: number;
  band: PriceBand;
  oi: number;
  oiDayHigh: number;
  oiDayLow: number;
}

const ZERO_SNAPSHOT: Snapshot = {
  ltp: 0,
  prevClose: 0,
  open: 0,
  high: 0,
  low: 0,
  volume: 0,
  avgPrice: 0,
  ltq: 0,
  ltt: 0,
  band: { lower: 0, upper: 0 },
  oi: 0,
  oiDayHigh: 0,
  oiDayLow: 0,
};
