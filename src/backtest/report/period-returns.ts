import { IST_OFFSET_MS, istDayNumber } from '../../domain/ist.ts';
import type { Paise } from '../../domain/money.ts';
import { type EquityColumns, type EquityPoint, equityColumns } from '../metrics.ts';

/** The equity change over one IST day or month. */
export interface PeriodReturn {
  /** `2026-11-20` (a day) or `2026-11` (a month), IST. */
  period: string;
  /** Equity at the end of the period before, paise (the capital for the first). */
  startEquity: Paise;
  endEquity: Paise;
  /** endEquity − startEquity. */
  pnl: Paise;
  /** pnl ÷ startEquity, percent (2 decimals). */
  returnPercent: number;
}

const round2 = (x: number): number => Math.round(x * 100) / 100;

function period(key: string, startEquity: Paise, endEquity: Paise): PeriodReturn {
  const pnl = endEquity - startEquity;
  return {
    period: key,
    startEquity,
    endEquity,
    pnl,
    returnPercent: startEquity === 0 ? 0 : round2((pnl / startEquity) * 100),
  };
}

/**
 * Daily returns from the equity curve: one entry per IST date that had an in-session
 * sample (nights and holidays, when nothing trades, are not days), each from the
 * equity at the previous such day's last sample (the capital for the first) to its own
 * last sample.
 *
 * @example
 * ```ts
 * dailyReturns(result.equity, result.summary.capital)[0]; // { period: '2026-11-20', pnl: -25830, … }
 * ```
 */
export function dailyReturns(
  equity: readonly EquityPoint[] | EquityColumns,
  capital: Paise,
): PeriodReturn[] {
  const curve = equityColumns(equity);
  const out: PeriodReturn[] = [];
  let start = capital;
  let day = '';
  let dayNumber = Number.NaN;
  let last = capital;
  let traded = false;
  const close = (): void => {
    if (day !== '' && traded) {
      out.push(period(day, start, last));
      start = last;
    }
  };
  for (let i = 0; i < curve.length; i++) {
    const at = curve.at[i] as number;
    // The IST date is formatted once a day, not once a sample (a month is 60 000 samples).
    const n = istDayNumber(at);
    if (n !== dayNumber) {
      close();
      dayNumber = n;
      day = new Date(at + IST_OFFSET_MS).toISOString().slice(0, 10);
      traded = false;
    }
    last = curve.equity[i] as number;
    traded ||= curve.open[i] === 1;
  }
  close();
  return out;
}

/** Monthly returns: the daily ones joined by IST month. */
export function monthlyReturns(daily: readonly PeriodReturn[]): PeriodReturn[] {
  const out: PeriodReturn[] = [];
  for (const d of daily) {
    const month = d.period.slice(0, 7);
    const prev = out.at(-1);
    if (prev?.period === month) out[out.length - 1] = period(month, prev.startEquity, d.endEquity);
    else out.push(period(month, d.startEquity, d.endEquity));
  }
  return out;
}
