import type { Greeks } from '../../api/schemas/utilities.ts';
import type { Paise } from '../../domain/money.ts';
import { nearestStrike } from './atm-strike.ts';
import type { OptionContract } from './option-contract.ts';

/**
 * The contract of `optionType` whose strike is `offset` listed strikes away from the
 * at-the-money one (positive = higher strikes: OTM for calls, ITM for puts). Undefined
 * when the chain does not reach that far.
 *
 * @example
 * ```ts
 * pickByOffset(chain, 2_452_510, 'CE', 2); // two strikes above ATM
 * ```
 */
export function pickByOffset(
  contracts: readonly OptionContract[],
  ltp: Paise,
  optionType: 'CE' | 'PE',
  offset: number,
): OptionContract | undefined {
  if (!Number.isInteger(offset)) throw new RangeError(`offset must be an integer: ${offset}`);
  const side = contracts.filter((c) => c.optionType === optionType);
  const strikes = [...new Set(side.map((c) => c.strike))].sort((a, b) => a - b);
  const atm = nearestStrike(strikes, ltp);
  if (atm === undefined) return undefined;
  const target = strikes[strikes.indexOf(atm) + offset];
  return target === undefined ? undefined : side.find((c) => c.strike === target);
}

/** A contract with its greeks, as {@link pickByDelta} compares them. */
export interface ContractGreeks {
  readonly contract: OptionContract;
  readonly greeks: Greeks;
}

/**
 * The contract whose |delta| is nearest to |`targetDelta`| (so 0.25 finds a 25-delta
 * call or put), among contracts of `optionType`. Ties go to the lower |delta| (further
 * out of the money).
 *
 * @example
 * ```ts
 * pickByDelta(withGreeks, 'PE', 0.2)?.contract.symbol;
 * ```
 */
export function pickByDelta(
  candidates: readonly ContractGreeks[],
  optionType: 'CE' | 'PE',
  targetDelta: number,
): ContractGreeks | undefined {
  const target = Math.abs(targetDelta);
  let best: ContractGreeks | undefined;
  let bestGap = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    if (c.contract.optionType !== optionType || !Number.isFinite(c.greeks.delta)) continue;
    const d = Math.abs(c.greeks.delta);
    const gap = Math.abs(d - target);
    if (
      gap < bestGap - 1e-12 ||
      (Math.abs(gap - bestGap) <= 1e-12 && best !== undefined && d < Math.abs(best.greeks.delta))
    ) {
      best = c;
      bestGap = gap;
    }
  }
  return best;
}
