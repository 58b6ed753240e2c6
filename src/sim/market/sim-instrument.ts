import type { Paise } from '../../domain/money.ts';
import type { OptionType } from '../../domain/order-params.ts';

/** What kind of instrument: indexes are quoted only; equities and options trade. */
type InstrumentKind = 'index' | 'equity' | 'option';

/** Contract terms of a simulated option. */
export interface OptionTerms {
  /** Token of the underlying index. */
  underlying: number;
  optionType: OptionType;
  strike: Paise;
  /** Expiry instant (15:30 IST on expiry day), epoch ms. */
  expiresAt: number;
  /** Expiry as `DD-MON-YYYY`. */
  expiry: string;
}

/** One instrument of the simulated market. Money in paise. */
export interface SimInstrument {
  token: number;
  /** Trading symbol (`SBIN-EQ`, `NIFTY27JAN26C25800`) or index symbol (`NIFTY`). */
  symbol: string;
  /** Display name (`NIFTY 50`, `STATE BANK OF INDIA`). */
  name: string;
  /** `INDEX` for indexes, else the exchange segment orders name. */
  exchange: 'INDEX' | 'NSE' | 'NFO';
  kind: InstrumentKind;
  tick: Paise;
  lotSize: number;
  pricePrecision: number;
  /** Price at the start of the simulation (underlyings only). */
  basePrice?: Paise;
  /** Annualised volatility as a fraction: path volatility of underlyings, ATM IV of options' underlyings. */
  vol?: number;
  /** Strike step of the options on this index. */
  strikeStep?: Paise;
  option?: OptionTerms;
}
