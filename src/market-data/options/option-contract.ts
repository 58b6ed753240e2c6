import type { OptionChainEntry } from '../../api/schemas/utilities.ts';
import { type Paise, parseRupees } from '../../domain/money.ts';

/**
 * One option of a chain, with money as integer paise and numbers as numbers.
 *
 * @example
 * ```ts
 * const c: OptionContract = { token: 45001, symbol: 'NIFTY26NOV24500CE', exchange: 'NFO',
 *   optionType: 'CE', strike: 2_450_000, expiry: '26-NOV-2026', lotSize: 75, tickSize: 5,
 *   pricePrecision: 2 };
 * ```
 */
export interface OptionContract {
  readonly token: number;
  readonly symbol: string;
  readonly exchange: string;
  readonly optionType: 'CE' | 'PE';
  /** Strike in paise. */
  readonly strike: Paise;
  /** `DD-MON-YYYY`. */
  readonly expiry: string;
  readonly lotSize: number;
  /** Tick size in paise. */
  readonly tickSize: Paise;
  readonly pricePrecision: number;
}

/**
 * Converts a wire option chain entry (decimal text) into an {@link OptionContract}.
 *
 * @example
 * ```ts
 * toOptionContract(entry, '26-NOV-2026').strike; // 2450000 for "24500.00"
 * ```
 */
export function toOptionContract(entry: OptionChainEntry, expiry: string): OptionContract {
  return {
    token: Number(entry.token),
    symbol: entry.symbol,
    exchange: entry.exchange,
    optionType: entry.optionType,
    strike: parseRupees(entry.strikePrice),
    expiry,
    lotSize: Number(entry.lotSize || '0'),
    tickSize: entry.tickSize === '' ? 0 : parseRupees(entry.tickSize),
    pricePrecision: Number(entry.pricePrecision || '2'),
  };
}
