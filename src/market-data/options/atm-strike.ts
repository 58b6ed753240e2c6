import type { Paise } from '../../domain/money.ts';

/**
 * The at-the-money strike: the strike grid point nearest the underlying's LTP (ties go
 * up). All amounts in paise.
 *
 * @example
 * ```ts
 * atmStrike(2_452_510, 5_000); // 2_455_000 (LTP 24525.10, 50-point strikes → 24550)
 * ```
 */
export function atmStrike(ltp: Paise, step: Paise): Paise {
  if (!(Number.isSafeInteger(step) && step > 0)) throw new RangeError(`bad strike step ${step}`);
  return Math.round(ltp / step) * step;
}

/**
 * The strike step of a chain: the smallest gap between distinct strikes.
 *
 * @example
 * ```ts
 * strikeStep([2_440_000, 2_445_000, 2_450_000]); // 5_000
 * ```
 */
export function strikeStep(strikes: Iterable<Paise>): Paise | undefined {
  const sorted = [...new Set(strikes)].sort((a, b) => a - b);
  let step: number | undefined;
  for (let i = 1; i < sorted.length; i++) {
    const gap = (sorted[i] as number) - (sorted[i - 1] as number);
    if (step === undefined || gap < step) step = gap;
  }
  return step;
}

/**
 * The listed strike nearest the LTP (for chains with uneven grids).
 *
 * @example
 * ```ts
 * nearestStrike([2_440_000, 2_450_000], 2_447_000); // 2_450_000
 * ```
 */
export function nearestStrike(strikes: Iterable<Paise>, ltp: Paise): Paise | undefined {
  let best: Paise | undefined;
  for (const s of strikes) {
    if (
      best === undefined ||
      Math.abs(s - ltp) < Math.abs(best - ltp) ||
      (Math.abs(s - ltp) === Math.abs(best - ltp) && s > best)
    ) {
      best = s;
    }
  }
  return best;
}
