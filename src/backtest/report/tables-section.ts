import type { BacktestResult } from '../run-backtest.ts';
import type { Analysis } from './analysis.ts';
import { duration, esc, inr, ist, pct, signed, table, tableParts } from './format.ts';
import type { PeriodReturn } from './period-returns.ts';
import type { TradeStats } from './trade-stats.ts';

const STATS_HEAD = [
  '',
  'Trades',
  'Open',
  'Win rate',
  'Profit factor',
  'Expectancy',
  'Avg win',
  'Avg loss',
  'Gross',
  'Costs',
  'Net',
  'Avg duration',
];

function statsTable(id: string, first: string, list: readonly TradeStats[]): string {
  const rows = list.map(
    (s) =>
      `<tr><td>${esc(s.key)}</td><td>${s.trades}</td><td>${s.open}</td><td>${pct(s.winRate)}</td><td>${s.profitFactor ?? '—'}</td>${signed(s.expectancy, inr(s.expectancy))}<td>${inr(s.avgWin)}</td><td>${inr(s.avgLoss)}</td><td>${inr(s.gross)}</td><td>${inr(s.costs)}</td>${signed(s.net, inr(s.net))}<td>${duration(s.avgDurationMs)}</td></tr>`,
  );
  return table(id, [first, ...STATS_HEAD.slice(1)], rows);
}

function periodTable(id: string, first: string, list: readonly PeriodReturn[]): string {
  const rows = list.map(
    (d) =>
      `<tr><td>${esc(d.period)}</td><td>${inr(d.startEquity)}</td><td>${inr(d.endEquity)}</td>${signed(d.pnl, inr(d.pnl))}${signed(d.returnPercent, pct(d.returnPercent))}</tr>`,
  );
  return table(id, [first, 'Start equity', 'End equity', 'PnL', 'Return'], rows);
}

/**
 * The report's tables: by symbol, by strategy and by exit reason; daily and monthly
 * returns; every round trip (exit reason, duration, MAE/MFE); every fill; every
 * rejected or denied order. In parts: the long tables (trades, rejections, fills) a
 * couple of hundred rows a part, so a month's thousands of rows are written as they are
 * made rather than held as one string.
 */
export function* tablesSectionParts(result: BacktestResult, a: Analysis): Generator<string> {
  // Net first after the prices (what a trader reads first), and no Strategy column for a
  // single strategy: the table fits a 1,400 px window.
  const many = new Set(a.trades.map((t) => t.strategyId)).size > 1;
  const trade = (t: Analysis['trades'][number]): string =>
    `<tr>${many ? `<td>${esc(t.strategyId)}</td>` : ''}<td>${esc(t.symbol)}</td><td>${t.direction}</td><td>${ist(t.openedAt)}</td><td>${t.closedAt === undefined ? 'open' : ist(t.closedAt)}</td><td>${duration(t.durationMs)}</td><td>${t.quantity}</td><td>${inr(t.entryPrice)}</td><td>${inr(t.exitPrice)}</td>${signed(t.net, inr(t.net))}<td>${esc(t.exitReason)}</td><td class="down">${inr(t.mae)} (${pct(t.maePercent)})</td><td class="up">${inr(t.mfe)} (${pct(t.mfePercent)})</td><td>${inr(t.gross)}</td><td>${inr(t.costs)}</td></tr>`;
  const tradeHead = [
    ...(many ? ['Strategy'] : []),
    ...['Symbol', 'Side', 'Opened', 'Closed', 'Duration', 'Qty', 'Entry', 'Exit', 'Net'],
    ...['Exit reason', 'MAE', 'MFE', 'Gross', 'Costs'],
  ];
  const fill = (f: BacktestResult['fills'][number]): string =>
    `<tr><td>${ist(f.at)}</td><td>${esc(f.strategyId)}</td><td>${esc(f.symbol)}</td><td>${f.side}</td><td>${f.quantity}</td><td>${inr(f.price)}</td><td>${esc(f.intentId)}</td></tr>`;
  const rejection = (r: BacktestResult['rejections'][number]): string =>
    `<tr><td>${ist(r.at)}</td><td>${esc(r.strategy)}</td><td>${esc(r.symbol ?? String(r.token))}</td><td>${r.side ?? '—'}</td><td>${r.quantity ?? '—'}</td><td>${r.kind}</td><td>${esc(r.reason)}</td></tr>`;
  yield `<h2>By symbol</h2>${statsTable('by-symbol', 'Symbol', a.bySymbol)}
<h2>By strategy</h2>${statsTable('by-strategy', 'Strategy', a.byStrategy)}
<h2>By exit reason</h2>${statsTable('by-exit', 'Exit reason', a.byExitReason)}
<div class="grid"><div><h2>Daily returns</h2>${periodTable('daily', 'Day', a.daily)}</div>
<div><h2>Monthly returns</h2>${periodTable('monthly', 'Month', a.monthly)}</div></div>
<h2>Trades</h2>`;
  yield* tableParts('trades', tradeHead, a.trades, trade);
  yield `
<h2>Rejected and denied orders (${result.rejections.length})</h2>`;
  if (result.rejections.length === 0) yield '<p id="rejections">None.</p>';
  else
    yield* tableParts(
      'rejections',
      ['Time', 'Strategy', 'Symbol', 'Side', 'Qty', 'Kind', 'Reason'],
      result.rejections,
      rejection,
    );
  yield `
<h2>Fills</h2>`;
  yield* tableParts(
    'fills',
    ['Time', 'Strategy', 'Symbol', 'Side', 'Qty', 'Price', 'Intent'],
    result.fills,
    fill,
  );
}
