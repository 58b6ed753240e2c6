import type { Paise } from '../../domain/money.ts';
import { type EquityColumns, type EquityPoint, equityColumns } from '../metrics.ts';
import type { PeriodReturn } from './period-returns.ts';
import type { TradeDetail } from './trade-details.ts';

/** Trading days a year, for annualising daily figures. */
const DAYS_A_YEAR = 252;
const YEAR_MS = 365.25 * 86_400_000;

/**
 * Return and risk figures beyond the summary, as backtesting.py and freqtrade print them.
 * Figures from daily returns need two trading days at least, else null.
 */
export interface RiskStats {
  /** Highest equity sampled, paise. */
  equityPeak: Paise;
  /** Mean daily return compounded over 252 days, percent. */
  returnAnnualPercent: number | null;
  /** Standard deviation of daily returns × √252, percent. */
  volatilityAnnualPercent: number | null;
  /** (final ÷ capital)^(1 year ÷ window) − 1, percent; null for a window under 30 days. */
  cagrPercent: number | null;
  /** Mean daily return ÷ their standard deviation × √252 (the summary's Sharpe is per sample). */
  sharpeDaily: number | null;
  /** Mean daily return ÷ downside deviation (below 0) × √252. */
  sortino: number | null;
  /** Annual return ÷ max drawdown %. */
  calmar: number | null;
  /** Longest time the equity spent below an earlier peak (until back at it, or the end), ms. */
  maxDrawdownDurationMs: number;
  /** System quality number: √trades × mean ÷ stdev of trade nets (closed trades, ≥ 2). */
  sqn: number | null;
  /** Kelly fraction: win rate − loss rate ÷ (average win ÷ |average loss|). */
  kelly: number | null;
  maxConsecutiveWins: number;
  maxConsecutiveLosses: number;
}

const round = (x: number, digits = 4): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

function meanSd(xs: readonly number[]): { mean: number; sd: number } {
  const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
  const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / Math.max(1, xs.length - 1);
  return { mean, sd: Math.sqrt(variance) };
}

/** Longest stretch below a running peak, from the peak's instant. */
function longestDrawdown(curve: EquityColumns): number {
  let peak = Number.NEGATIVE_INFINITY;
  let peakAt = 0;
  let longest = 0;
  let below = false;
  for (let i = 0; i < curve.length; i++) {
    const at = curve.at[i] as number;
    const equity = curve.equity[i] as number;
    // A stretch below the peak ends at the sample back at it, or runs on to the end.
    if (equity >= peak) {
      if (below) longest = Math.max(longest, at - peakAt);
      peak = equity;
      peakAt = at;
      below = false;
    } else {
      below = true;
      longest = Math.max(longest, at - peakAt);
    }
  }
  return longest;
}

function streaks(trades: readonly TradeDetail[]): { wins: number; losses: number } {
  let wins = 0;
  let losses = 0;
  let run = 0;
  for (const t of trades) {
    if (t.closedAt === undefined || t.net === 0) {
      run = 0;
      continue;
    }
    run = t.net > 0 ? Math.max(1, run + 1) : Math.min(-1, run - 1);
    wins = Math.max(wins, run);
    losses = Math.max(losses, -run);
  }
  return { wins, losses };
}

/**
 * {@link RiskStats} of a run from its equity curve, daily returns and round trips (in
 * the order they closed, for streaks).
 *
 * @example
 * ```ts
 * riskStats({ equity, daily, trades, capital, finalEquity, maxDrawdownPercent, startMs, endMs }).sortino;
 * ```
 */
export function riskStats(input: {
  /** The curve as points or columns. */
  equity: readonly EquityPoint[] | EquityColumns;
  daily: readonly PeriodReturn[];
  trades: readonly TradeDetail[];
  capital: Paise;
  finalEquity: Paise;
  maxDrawdownPercent: number;
  startMs: number;
  endMs: number;
}): RiskStats {
  // Exact returns: `returnPercent` is rounded to 0.01 % for display, which on ₹10 lakh is
  // ₹100 a day, enough to quantise a quiet strategy's days away.
  const curve = equityColumns(input.equity);
  const r = input.daily.map((d) => (d.startEquity === 0 ? 0 : d.pnl / d.startEquity));
  const enough = r.length >= 2;
  const { mean, sd } = enough ? meanSd(r) : { mean: 0, sd: 0 };
  const downside = Math.sqrt(
    r.reduce((s, x) => s + Math.min(0, x) ** 2, 0) / Math.max(1, r.length),
  );
  const annual = enough ? (1 + mean) ** DAYS_A_YEAR - 1 : null;
  const years = (input.endMs - input.startMs) / YEAR_MS;
  const closed = input.trades
    .filter((t) => t.closedAt !== undefined)
    .sort((a, b) => (a.closedAt as number) - (b.closedAt as number));
  const nets = closed.map((t) => t.net);
  const n = meanSd(nets);
  const wins = nets.filter((x) => x > 0);
  const losses = nets.filter((x) => x < 0);
  const avgWin = wins.reduce((s, x) => s + x, 0) / Math.max(1, wins.length);
  const avgLoss = -losses.reduce((s, x) => s + x, 0) / Math.max(1, losses.length);
  const winRate = nets.length === 0 ? 0 : wins.length / nets.length;
  const s = streaks(closed);
  return {
    equityPeak: curve.equity.reduce((m, x) => Math.max(m, x), input.capital),
    returnAnnualPercent: annual === null ? null : round(annual * 100, 2),
    volatilityAnnualPercent: enough ? round(sd * Math.sqrt(DAYS_A_YEAR) * 100, 2) : null,
    cagrPercent:
      years * 365.25 < 30 || input.capital <= 0
        ? null
        : round(((input.finalEquity / input.capital) ** (1 / years) - 1) * 100, 2),
    sharpeDaily: enough && sd > 0 ? round((mean / sd) * Math.sqrt(DAYS_A_YEAR)) : null,
    sortino: enough && downside > 0 ? round((mean / downside) * Math.sqrt(DAYS_A_YEAR)) : null,
    calmar:
      annual === null || input.maxDrawdownPercent <= 0
        ? null
        : round((annual * 100) / input.maxDrawdownPercent),
    maxDrawdownDurationMs: longestDrawdown(curve),
    sqn: nets.length >= 2 && n.sd > 0 ? round((Math.sqrt(nets.length) * n.mean) / n.sd) : null,
    kelly:
      wins.length > 0 && losses.length > 0
        ? round(winRate - (1 - winRate) / (avgWin / avgLoss))
        : null,
    maxConsecutiveWins: s.wins,
    maxConsecutiveLosses: s.losses,
  };
}
