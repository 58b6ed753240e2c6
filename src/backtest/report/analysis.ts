import type { Paise } from '../../domain/money.ts';
import { type EquityColumns, equityColumns } from '../metrics.ts';
import type { PriceBars } from '../price-sampler.ts';
import type { BacktestResult } from '../run-backtest.ts';
import { dailyReturns, monthlyReturns, type PeriodReturn } from './period-returns.ts';
import { type RiskStats, riskStats } from './risk-stats.ts';
import { type TradeDetail, tradeDetails } from './trade-details.ts';
import { type TradeStats, tradeStats, tradeStatsBy } from './trade-stats.ts';

/** Buy and hold of one instrument with the run's capital, for comparison. */
interface Benchmark {
  token: number;
  symbol: string;
  /** First and last price seen in the window, paise. */
  startPrice: Paise;
  endPrice: Paise;
  returnPercent: number;
  /** capital × endPrice ÷ startPrice, paise. */
  finalEquity: Paise;
}

/** What the report derives from a result: per-trade details, breakdowns, periods. */
export interface Analysis {
  trades: TradeDetail[];
  /** Statistics of every trip (`key: 'all'`). */
  overall: TradeStats;
  bySymbol: TradeStats[];
  byStrategy: TradeStats[];
  byExitReason: TradeStats[];
  daily: PeriodReturn[];
  monthly: PeriodReturn[];
  bestDay: PeriodReturn | null;
  worstDay: PeriodReturn | null;
  /** Days with pnl > 0, < 0 and = 0. */
  days: { winning: number; losing: number; flat: number };
  benchmark: Benchmark | null;
  /** Annualised return and volatility, CAGR, Sortino, Calmar, SQN, Kelly, streaks… */
  risk: RiskStats;
}

/** The benchmark's close at or before each instant (its first open before its first bar). */
export function priceAt(bars: PriceBars): (at: number) => Paise | undefined {
  let i = 0;
  return (at) => {
    // Instants come in order: walk forward only.
    while (i + 1 < bars.start.length && (bars.start[i + 1] as number) <= at) i++;
    if ((bars.start[i] as number) > at) return bars.open[0];
    return bars.close[i];
  };
}

/**
 * A result's equity curve as columns: the columns a backtest keeps, else a hand-built
 * result's points copied out once (the report's parts all read the same curve).
 */
export const equityOf = (result: BacktestResult): EquityColumns =>
  equityColumns(result.equityCurve ?? result.equity);

function benchmarkOf(result: BacktestResult): Benchmark | null {
  const bars = result.prices.find((p) => p.token === result.benchmarkToken);
  const startPrice = bars?.open[0];
  const endPrice = bars?.close.at(-1);
  if (bars === undefined || startPrice === undefined || endPrice === undefined || startPrice <= 0)
    return null;
  const capital = result.summary.capital;
  return {
    token: bars.token,
    symbol: bars.symbol,
    startPrice,
    endPrice,
    returnPercent: Math.round(((endPrice - startPrice) / startPrice) * 1_000_000) / 10_000,
    finalEquity: Math.round((capital * endPrice) / startPrice),
  };
}

/**
 * Everything the report shows beyond the summary: each trade's exit reason, duration
 * and MAE/MFE; statistics overall, by symbol, by strategy and by exit reason; daily and
 * monthly returns with the best and worst day; the buy-and-hold benchmark.
 *
 * @example
 * ```ts
 * const a = analyze(result);
 * a.overall.expectancy; a.bestDay?.pnl; a.benchmark?.returnPercent;
 * ```
 */
export function analyze(result: BacktestResult): Analysis {
  const squareOffs = new Set(result.intents.filter((i) => i.kind === 'squareOff').map((i) => i.id));
  const trades = tradeDetails(
    result.trades,
    result.fills,
    squareOffs,
    result.prices,
    result.summary.endMs,
  );
  // Columns once: dailyReturns and riskStats take them as they are.
  const equity = equityOf(result);
  const daily = dailyReturns(equity, result.summary.capital);
  let bestDay: PeriodReturn | null = null;
  let worstDay: PeriodReturn | null = null;
  for (const d of daily) {
    if (bestDay === null || d.pnl > bestDay.pnl) bestDay = d;
    if (worstDay === null || d.pnl < worstDay.pnl) worstDay = d;
  }
  return {
    trades,
    overall: tradeStats('all', trades),
    bySymbol: tradeStatsBy(trades, (t) => t.symbol),
    byStrategy: tradeStatsBy(trades, (t) => t.strategyId),
    byExitReason: tradeStatsBy(trades, (t) => t.exitReason),
    daily,
    monthly: monthlyReturns(daily),
    bestDay,
    worstDay,
    days: {
      winning: daily.filter((d) => d.pnl > 0).length,
      losing: daily.filter((d) => d.pnl < 0).length,
      flat: daily.filter((d) => d.pnl === 0).length,
    },
    benchmark: benchmarkOf(result),
    risk: riskStats({
      equity,
      daily,
      trades,
      capital: result.summary.capital,
      finalEquity: result.summary.finalEquity,
      maxDrawdownPercent: result.summary.maxDrawdownPercent,
      startMs: result.summary.startMs,
      endMs: result.summary.endMs,
    }),
  };
}
