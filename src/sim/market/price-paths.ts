import { DAY_MS, istDayStart } from '../../domain/ist.ts';
import { type Paise, roundToTick } from '../../domain/money.ts';
import type { PriceBand } from '../engine/venue-market.ts';
import { hashInts, Prng } from '../prng.ts';
import type { SimInstrument } from './sim-instrument.ts';

/** Open seconds in a trading year: 252 days of 6h15m. */
const OPEN_SECONDS_PER_YEAR = 252 * 22_500;
const EQUITY_BAND = 0.2;

/** Day state of one underlying's price path (indexes and equities). */
export interface PathState {
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
 * The seeded geometric Brownian paths of every underlying and the trading-day
 * bookkeeping they share (rollover, first step of the day, step counters). Owns the
 * one random stream the steps draw from, so the paths stay a pure function of the seed
 * and the sequence of step instants.
 */
export class PricePaths {
  private readonly rng: Prng;
  private readonly paths = new Map<number, PathState>();
  private dayStart: number;
  /** Instant of the previous day's last step (option `close` is priced there). */
  private prevCloseAtMs: number;
  /** Instant of today's first step (option `open` is priced there). */
  private dayOpenAtMs: number;
  private stepCountValue = 0;
  private lastStepAt: number;
  private stepsTodayValue = 0;

  constructor(underlyings: Iterable<SimInstrument>, seed: number, startAt: number) {
    this.rng = new Prng(hashInts(seed, 0x5eed));
    this.dayStart = istDayStart(startAt);
    this.prevCloseAtMs = startAt;
    this.dayOpenAtMs = startAt;
    this.lastStepAt = startAt;
    for (const inst of underlyings) {
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
      state.band = equityBand(state);
      this.paths.set(inst.token, state);
    }
  }

  /** Path of the underlying `token`, or undefined when it has none (options, unknown). */
  get(token: number): PathState | undefined {
    return this.paths.get(token);
  }

  /** Steps taken since the start; depth books are cached per step. */
  get stepCount(): number {
    return this.stepCountValue;
  }

  /** Steps taken in the current trading day. */
  get stepsToday(): number {
    return this.stepsTodayValue;
  }

  /** Instant of the previous day's last step. */
  get prevCloseAt(): number {
    return this.prevCloseAtMs;
  }

  /** Instant of today's first step. */
  get dayOpenAt(): number {
    return this.dayOpenAtMs;
  }

  /** Moves every path one market step to `at`, rolling the day over when `at` is past it. */
  step(at: number): void {
    const rollover = at >= this.dayStart + DAY_MS;
    if (rollover) {
      this.dayStart = istDayStart(at);
      this.prevCloseAtMs = this.lastStepAt;
      this.stepsTodayValue = 0;
    }
    if (rollover || this.stepsTodayValue === 0) this.dayOpenAtMs = at;
    this.stepCountValue++;
    this.stepsTodayValue++;
    this.lastStepAt = at;
    for (const s of this.paths.values()) {
      if (rollover) {
        s.prevClose = s.ltp;
        s.volume = 0;
        s.turnover = 0;
        s.band = equityBand(s);
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
      if (rollover || this.stepsTodayValue === 1) {
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
}

/** Equities get a ±20% circuit around the previous close; indexes have none (0/0). */
function equityBand(s: PathState): PriceBand {
  if (s.inst.kind !== 'equity') return { lower: 0, upper: 0 };
  const tick = s.inst.tick;
  return {
    lower: roundToTick(Math.round(s.prevClose * (1 - EQUITY_BAND)), tick, 'up'),
    upper: roundToTick(Math.round(s.prevClose * (1 + EQUITY_BAND)), tick, 'down'),
  };
}
