import type { Greeks } from '../../api/schemas/utilities.ts';
import { DAY_MS } from '../../domain/ist.ts';
import { type Paise, roundToTick } from '../../domain/money.ts';
import { blackScholes } from '../black-scholes.ts';
import { hashInts } from '../prng.ts';
import { type Snapshot, ZERO_SNAPSHOT } from './market-snapshot.ts';
import type { PathState, PricePaths } from './price-paths.ts';
import type { SimInstrument } from './sim-instrument.ts';

const YEAR_MS = 365 * DAY_MS;

/**
 * Black–Scholes options derived on demand from their underlying's path: price, greeks
 * and a synthetic day (open/high/low, volume, open interest). Holds no state of its own
 * beyond the paths it reads, so an option's quote is always consistent with its index.
 */
export class OptionPricer {
  constructor(
    private readonly paths: PricePaths,
    private readonly seed: number,
    private readonly rate: number,
  ) {}

  /** Greeks of option `inst` at instant `now`, or undefined when it is not an option. */
  greeks(inst: SimInstrument | undefined, now: number): Greeks | undefined {
    const terms = inst?.option;
    const under = terms === undefined ? undefined : this.paths.get(terms.underlying);
    if (terms === undefined || under === undefined) return undefined;
    const spot = under.ltp / 100;
    const vol = impliedVol(under, terms.strike / 100, spot);
    const g = blackScholes({
      type: terms.optionType,
      spot,
      strike: terms.strike / 100,
      years: (terms.expiresAt - now) / YEAR_MS,
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

  /** Snapshot of option `inst` at instant `now`; zero when it is not a priceable option. */
  snapshot(inst: SimInstrument | undefined, now: number): Snapshot {
    const terms = inst?.option;
    const under = terms === undefined ? undefined : this.paths.get(terms.underlying);
    if (inst === undefined || terms === undefined || under === undefined) {
      return { ...ZERO_SNAPSHOT };
    }
    const price = (spot: Paise, at: number): Paise => this.price(inst, spot, at);
    const prevClose = price(under.prevClose, this.paths.prevCloseAt);
    const band = {
      lower: inst.tick,
      upper: roundToTick(prevClose * 3 + Math.round(under.prevClose / 100), inst.tick, 'up'),
    };
    const clamp = (p: Paise): Paise => Math.min(Math.max(p, band.lower), band.upper);
    const ltp = clamp(price(under.ltp, now));
    const step = this.paths.stepsToday;
    const open = step > 0 ? clamp(price(under.open, this.paths.dayOpenAt)) : prevClose;
    const atHigh = clamp(price(under.high, now));
    const atLow = clamp(price(under.low, now));
    const [hi, lo] = terms.optionType === 'CE' ? [atHigh, atLow] : [atLow, atHigh];
    // Near-the-money strikes trade and hold far more than the wings.
    const moneyness = Math.abs(Math.log(terms.strike / under.prevClose));
    const weight = 0.2 + 3 * Math.exp(-moneyness * 40);
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

  private price(inst: SimInstrument, spotPaise: Paise, at: number): Paise {
    const terms = inst.option;
    const under = terms === undefined ? undefined : this.paths.get(terms.underlying);
    if (terms === undefined || under === undefined) return inst.tick;
    const spot = spotPaise / 100;
    const { price } = blackScholes({
      type: terms.optionType,
      spot,
      strike: terms.strike / 100,
      years: (terms.expiresAt - at) / YEAR_MS,
      vol: impliedVol(under, terms.strike / 100, spot),
      rate: this.rate,
    });
    return Math.max(inst.tick, roundToTick(Math.round(price * 100), inst.tick));
  }
}

/** A gentle smile: wings and downside strikes carry more volatility than the money. */
function impliedVol(under: PathState, strike: number, spot: number): number {
  const m = Math.log(strike / spot);
  return Math.max(0.05, (under.inst.vol ?? 0.15) + 2 * m * m - 0.15 * m);
}
