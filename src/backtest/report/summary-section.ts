import type { BacktestResult } from '../run-backtest.ts';
import type { Analysis } from './analysis.ts';
import { duration, esc, inr, ist, pct, table } from './format.ts';

type Row = [string, string];

const num = (x: number | null, suffix = ''): string => (x === null ? '—' : `${x}${suffix}`);

const day = (d: Analysis['bestDay']): string =>
  d === null ? '—' : `${inr(d.pnl)} (${pct(d.returnPercent)}) on ${esc(d.period)}`;

/**
 * The report's headline tables: returns and risk, trade statistics (profit factor,
 * expectancy, average win and loss, best and worst trade and day), the benchmark, and
 * the costs by component. Money as ₹ with Indian grouping.
 */
export function summarySection(result: BacktestResult, a: Analysis): string {
  const s = result.summary;
  const o = a.overall;
  const b = a.benchmark;
  const r = a.risk;
  const perf: Row[] = [
    ['Net PnL', inr(s.netPnl)],
    ['Gross PnL', inr(s.grossPnl)],
    ['Costs', inr(s.costs.total)],
    ['Return', pct(s.returnPercent)],
    ['Final equity', inr(s.finalEquity)],
    ['Capital', inr(s.capital)],
    ['Equity peak', inr(r.equityPeak)],
    [
      'Return (annualised) / CAGR',
      `${num(r.returnAnnualPercent, '%')} / ${num(r.cagrPercent, '%')}`,
    ],
    ['Volatility (annualised)', num(r.volatilityAnnualPercent, '%')],
    [
      b === null ? 'Buy & hold' : `Buy & hold ${esc(b.symbol)}`,
      b === null
        ? '—'
        : `${pct(b.returnPercent)} (${inr(b.finalEquity)}; ${inr(b.startPrice)} → ${inr(b.endPrice)})`,
    ],
    ['Max drawdown', `${inr(-s.maxDrawdown)} (${pct(-s.maxDrawdownPercent)} below peak)`],
    // The summary's Sharpe is per equity sample; the daily one is on Sortino's footing.
    ['Sharpe (daily, annualised)', num(r.sharpeDaily)],
    ['Sharpe (per sample, annualised)', String(s.sharpe)],
    ['Sortino / Calmar', `${num(r.sortino)} / ${num(r.calmar)}`],
    ['Longest drawdown', duration(r.maxDrawdownDurationMs)],
    ['Exposure', `${s.exposurePercent}% of session time, max ${inr(s.maxExposure)}`],
    ['Best day', day(a.bestDay)],
    ['Worst day', day(a.worstDay)],
    ['Days won / lost / flat', `${a.days.winning} / ${a.days.losing} / ${a.days.flat}`],
    ['Window (IST)', `${ist(s.startMs)} → ${ist(s.endMs)}`],
  ];
  const trades: Row[] = [
    ['Trades (closed / open)', `${s.trades} / ${s.openTrades}`],
    ['Win rate', pct(s.winRate)],
    ['Profit factor', o.profitFactor === null ? '— (no loss)' : String(o.profitFactor)],
    ['Expectancy (per trade)', inr(o.expectancy)],
    ['Average win', inr(o.avgWin)],
    ['Average loss', inr(o.avgLoss)],
    ['Best trade', inr(o.bestTrade)],
    ['Worst trade', inr(o.worstTrade)],
    ['Max wins / losses in a row', `${r.maxConsecutiveWins} / ${r.maxConsecutiveLosses}`],
    ['SQN / Kelly', `${num(r.sqn)} / ${num(r.kelly)}`],
    ['Average / longest trade', `${duration(o.avgDurationMs)} / ${duration(o.maxDurationMs)}`],
    ['Orders / fills / intents', `${s.orders} / ${s.fills} / ${s.intents}`],
    ['Rejected / denied', `${s.rejected} / ${s.denied}`],
  ];
  const rows = (id: string, list: Row[]): string =>
    `<table id="${id}">${list.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${v}</td></tr>`).join('')}</table>`;
  const costs = table(
    'costs',
    ['Cost', 'Amount'],
    Object.entries(s.costs).map(([k, v]) => `<tr><td>${esc(k)}</td><td>${inr(v)}</td></tr>`),
  );
  return `<div class="grid">${rows('summary', perf)}${rows('trade-stats', trades)}${costs}</div>`;
}
