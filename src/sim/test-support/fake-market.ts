import type { Paise } from '../../domain/money.ts';
import type { DepthBook, PriceBand, VenueMarket } from '../engine/venue-market.ts';
import type { SimInstrument } from '../market/sim-instrument.ts';

/** SBIN as the engine tests trade it. */
export const SBIN: SimInstrument = {
  token: 3045,
  symbol: 'SBIN-EQ',
  name: 'STATE BANK OF INDIA',
  exchange: 'NSE',
  kind: 'equity',
  tick: 5,
  lotSize: 1,
  pricePrecision: 2,
};

/** A NIFTY option with lot size 65. */
export const NIFTY_CE: SimInstrument = {
  token: 40_000,
  symbol: 'NIFTY06JAN26C25800',
  name: 'NIFTY',
  exchange: 'NFO',
  kind: 'option',
  tick: 5,
  lotSize: 65,
  pricePrecision: 2,
  option: {
    underlying: 26000,
    optionType: 'CE',
    strike: 2_580_000,
    expiresAt: Date.parse('2026-01-06T10:00:00Z'),
    expiry: '06-JAN-2026',
  },
};

/**
 * A hand-driven market for engine tests: each `set` puts the last price where the test
 * wants it, with five levels a side one tick apart and `perLevel` lots at each.
 */
export class FakeMarket implements VenueMarket {
  private readonly state = new Map<number, { ltp: Paise; book: DepthBook; band: PriceBand }>();
  private readonly instruments = new Map<number, SimInstrument>();

  constructor(instruments: readonly SimInstrument[] = [SBIN, NIFTY_CE]) {
    for (const i of instruments) this.instruments.set(i.token, i);
  }

  /** Sets last price, fresh depth and band of `token`. */
  set(token: number, ltp: Paise, perLevel = 100, band: PriceBand = { lower: 0, upper: 0 }): void {
    const inst = this.instruments.get(token);
    const tick = inst?.tick ?? 5;
    const lot = inst?.lotSize ?? 1;
    const level = (price: Paise) => ({ orders: 2, price, quantity: perLevel * lot });
    const book: DepthBook = {
      bids: [0, 1, 2, 3, 4].map((i) => level(ltp - (i + 1) * tick)),
      asks: [0, 1, 2, 3, 4].map((i) => level(ltp + (i + 1) * tick)),
    };
    this.state.set(token, { ltp, book, band });
  }

  instrument(token: number): SimInstrument | undefined {
    return this.instruments.get(token);
  }

  ltp(token: number): Paise {
    return this.state.get(token)?.ltp ?? 0;
  }

  band(token: number): PriceBand {
    return this.state.get(token)?.band ?? { lower: 0, upper: 0 };
  }

  depth(token: number): DepthBook {
    return this.state.get(token)?.book ?? { bids: [], asks: [] };
  }

  setDepth(token: number, book: DepthBook): void {
    const s = this.state.get(token);
    if (s !== undefined) s.book = book;
  }
}
