import { DAY_MS, istDayStart, istParts } from '../../domain/ist.ts';
import type { MarketSessions } from '../../domain/market-sessions.ts';
import { formatRupees, type Paise } from '../../domain/money.ts';
import { formatExpiry, formatSymbolDate } from '../ist-time.ts';
import type { SimInstrument } from './sim-instrument.ts';

const STRIKES_EACH_SIDE = 20;

interface IndexSpec {
  token: number;
  symbol: string;
  name: string;
  base: Paise;
  vol: number;
  lotSize: number;
  strikeStep: Paise;
  firstOptionToken: number;
}

const INDEXES: readonly IndexSpec[] = [
  {
    token: 26000,
    symbol: 'NIFTY',
    name: 'NIFTY 50',
    base: 2_580_000,
    vol: 0.13,
    lotSize: 65,
    strikeStep: 5_000,
    firstOptionToken: 40_000,
  },
  {
    token: 26009,
    symbol: 'BANKNIFTY',
    name: 'NIFTY BANK',
    base: 5_800_000,
    vol: 0.16,
    lotSize: 30,
    strikeStep: 10_000,
    firstOptionToken: 60_000,
  },
];

const EQUITIES: ReadonlyArray<[number, string, string, Paise, number]> = [
  [1333, 'HDFCBANK', 'HDFC BANK LTD', 99_000, 0.2],
  [1594, 'INFY', 'INFOSYS LIMITED', 160_000, 0.24],
  [2885, 'RELIANCE', 'RELIANCE INDUSTRIES LTD', 140_000, 0.22],
  [3045, 'SBIN', 'STATE BANK OF INDIA', 80_000, 0.26],
  [4963, 'ICICIBANK', 'ICICI BANK LTD.', 140_000, 0.21],
  [11536, 'TCS', 'TATA CONSULTANCY SERV LT', 320_000, 0.22],
];

/**
 * The simulated instruments: NIFTY 50 (26000) and NIFTY BANK (26009), six NSE
 * equities (SBIN 3045 among them), and for each index the next two weekly and next two
 * monthly expiries (Tuesdays, moved earlier over non-trading days) with 41 strikes
 * around the starting spot, CE and PE.
 */
export class InstrumentUniverse {
  private readonly byToken = new Map<number, SimInstrument>();
  private readonly chains = new Map<number, SimInstrument[]>();

  /** Indexes and equities, by token: the instruments that have their own price path. */
  readonly underlyings: readonly SimInstrument[];

  constructor(instruments: readonly SimInstrument[]) {
    for (const inst of instruments) {
      this.byToken.set(inst.token, inst);
      if (inst.option !== undefined) {
        const list = this.chains.get(inst.option.underlying) ?? [];
        list.push(inst);
        this.chains.set(inst.option.underlying, list);
      }
    }
    this.underlyings = instruments
      .filter((i) => i.kind !== 'option')
      .sort((a, b) => a.token - b.token);
  }

  /**
   * The standard universe, with option expiries following `startAt`.
   *
   * @example
   * ```ts
   * const u = InstrumentUniverse.standard(clock.now(), hours);
   * u.get(3045)?.symbol; // 'SBIN-EQ'
   * ```
   */
  static standard(startAt: number, hours: MarketSessions): InstrumentUniverse {
    const list: SimInstrument[] = [];
    for (const [token, symbol, name, base, vol] of EQUITIES) {
      list.push({
        token,
        symbol: `${symbol}-EQ`,
        name,
        exchange: 'NSE',
        kind: 'equity',
        tick: 5,
        lotSize: 1,
        pricePrecision: 2,
        basePrice: base,
        vol,
      });
    }
    for (const ix of INDEXES) {
      list.push({
        token: ix.token,
        symbol: ix.symbol,
        name: ix.name,
        exchange: 'INDEX',
        kind: 'index',
        tick: 1,
        lotSize: 1,
        pricePrecision: 2,
        basePrice: ix.base,
        vol: ix.vol,
        strikeStep: ix.strikeStep,
      });
      let token = ix.firstOptionToken;
      const atm = Math.round(ix.base / ix.strikeStep) * ix.strikeStep;
      for (const expiresAt of expiries(startAt, hours)) {
        for (let k = -STRIKES_EACH_SIDE; k <= STRIKES_EACH_SIDE; k++) {
          const strike = atm + k * ix.strikeStep;
          for (const optionType of ['CE', 'PE'] as const) {
            list.push({
              token: token++,
              symbol: `${ix.symbol}${formatSymbolDate(expiresAt)}${optionType[0]}${formatRupees(strike, 0)}`,
              name: ix.symbol,
              exchange: 'NFO',
              kind: 'option',
              tick: 5,
              lotSize: ix.lotSize,
              pricePrecision: 2,
              option: {
                underlying: ix.token,
                optionType,
                strike,
                expiresAt,
                expiry: formatExpiry(expiresAt),
              },
            });
          }
        }
      }
    }
    return new InstrumentUniverse(list);
  }

  /** The instrument with this token. */
  get(token: number): SimInstrument | undefined {
    return this.byToken.get(token);
  }

  /** Every instrument. */
  all(): IterableIterator<SimInstrument> {
    return this.byToken.values();
  }

  /** Options on the index `underlying`, by expiry, strike, then CE before PE. */
  optionsOf(underlying: number): readonly SimInstrument[] {
    return this.chains.get(underlying) ?? [];
  }
}

/** The next two weekly and two monthly expiry instants after `startAt`, ascending. */
function expiries(startAt: number, hours: MarketSessions): number[] {
  const isTradingDay = (midnight: number): boolean => {
    const open = hours.nextOpen(midnight);
    return open !== undefined && open < midnight + DAY_MS;
  };
  const settle = (midnight: number): number => {
    let m = midnight;
    for (let i = 0; i < 10 && !isTradingDay(m); i++) m -= DAY_MS;
    return m + (15 * 60 + 30) * 60_000;
  };
  const firstDay = istDayStart(startAt);
  const tuesdays: number[] = [];
  for (let m = firstDay; tuesdays.length < 80; m += DAY_MS) {
    if (istParts(m).weekday === 2) tuesdays.push(m);
  }
  const live = (m: number): boolean => settle(m) > startAt;
  const weekly = tuesdays.filter(live).slice(0, 2);
  const monthly = tuesdays
    .filter((m) => istParts(m + 7 * DAY_MS).month !== istParts(m).month)
    .filter(live)
    .slice(0, 2);
  const days = [...new Set([...weekly, ...monthly])].sort((a, b) => a - b);
  return days.map(settle);
}
