import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { formatRupees } from '../domain/money.ts';
import type { BacktestResult } from './run-backtest.ts';

const require = createRequire(import.meta.url);

/** The lightweight-charts standalone bundle, read once, inlined into every report. */
let chartsBundle: string | undefined;
function charts(): string {
  // The package's exports hide the standalone bundle; it sits next to the main entry.
  chartsBundle ??= readFileSync(
    join(
      dirname(require.resolve('lightweight-charts/package.json')),
      'dist/lightweight-charts.standalone.production.js',
    ),
    'utf8',
  );
  return chartsBundle;
}

/** IST is UTC+5:30; the charts' time axis shows UTC, so times are shifted to read as IST. */
const IST_SECONDS = 19_800;

/** Escapes text for HTML. */
function esc(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** JSON safe inside a `<script>` element. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

const ist = (ms: number): string =>
  new Date(ms + IST_SECONDS * 1_000).toISOString().replace('T', ' ').slice(0, 19);

/**
 * A self-contained HTML report: the summary, the equity and drawdown curves as
 * interactive lightweight-charts (the library is inlined, so the page works offline),
 * the round trips and the fills. One file, no network.
 *
 * @example
 * ```ts
 * await writeFile('report.html', reportHtml(result));
 * ```
 */
export function reportHtml(result: BacktestResult): string {
  const s = result.summary;
  const rupees = (p: number): string => `₹${formatRupees(p)}`;
  const rows: [string, string][] = [
    ['Net PnL', rupees(s.netPnl)],
    ['Gross PnL', rupees(s.grossPnl)],
    ['Costs', rupees(s.costs.total)],
    ['Return', `${s.returnPercent}%`],
    ['Max drawdown', `${rupees(s.maxDrawdown)} (${s.maxDrawdownPercent}%)`],
    ['Sharpe (annualised)', String(s.sharpe)],
    ['Win rate', `${s.winRate}%`],
    ['Trades (closed / open)', `${s.trades} / ${s.openTrades}`],
    ['Exposure', `${s.exposurePercent}% of session time`],
    ['Orders / fills / intents', `${s.orders} / ${s.fills} / ${s.intents}`],
    ['Capital', rupees(s.capital)],
    ['Window (IST)', `${ist(s.startMs)} → ${ist(s.endMs)}`],
  ];
  const costRows = Object.entries(s.costs)
    .map(([k, v]) => `<tr><td>${esc(k)}</td><td>${rupees(v)}</td></tr>`)
    .join('');
  const trades = result.trades
    .map(
      (t) =>
        `<tr><td>${esc(t.strategyId)}</td><td>${esc(t.symbol)}</td><td>${t.direction}</td><td>${ist(t.openedAt)}</td><td>${t.closedAt === undefined ? 'open' : ist(t.closedAt)}</td><td>${t.quantity}</td><td>${rupees(t.entryPrice)}</td><td>${rupees(t.exitPrice)}</td><td>${rupees(t.gross)}</td><td>${rupees(t.costs)}</td><td class="${t.net >= 0 ? 'up' : 'down'}">${rupees(t.net)}</td></tr>`,
    )
    .join('');
  const fills = result.fills
    .map(
      (f) =>
        `<tr><td>${ist(f.at)}</td><td>${esc(f.strategyId)}</td><td>${esc(f.symbol)}</td><td>${f.side}</td><td>${f.quantity}</td><td>${rupees(f.price)}</td></tr>`,
    )
    .join('');
  // One point per second at most (the chart needs strictly increasing times).
  const points = new Map<number, { e: number; d: number }>();
  for (const p of result.equity) {
    points.set(Math.floor(p.at / 1_000) + IST_SECONDS, { e: p.equity / 100, d: -p.drawdown / 100 });
  }
  const series = [...points].map(([time, v]) => ({ time, ...v }));
  const params = Object.entries(result.params)
    .map(([k, v]) => `${esc(k)}=${esc(String(v))}`)
    .join(', ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Backtest ${esc(result.name)}</title>
<style>
body{font:14px system-ui,sans-serif;margin:24px;color:#1d2330;background:#fff}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;border-bottom:1px solid #e3e6ec;text-align:right}
td:first-child,th:first-child{text-align:left}.up{color:#0a7f3f}.down{color:#c0262d}
.chart{width:100%;height:320px;margin:8px 0}.grid{display:flex;gap:32px;flex-wrap:wrap}
</style></head><body>
<h1>Backtest: ${esc(result.name)}</h1>
<p>${params === '' ? 'Spec params.' : `Params: ${params}.`} Fill model: latency ${result.fillModel.latencyMs} ms, slippage ${result.fillModel.slippageTicks} ticks. Money in rupees; times in IST.</p>
<div class="grid"><table id="summary">${rows.map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(v)}</td></tr>`).join('')}</table>
<table id="costs"><tr><th>Cost</th><th>Amount</th></tr>${costRows}</table></div>
<h2>Equity</h2><div id="equity" class="chart"></div>
<h2>Drawdown</h2><div id="drawdown" class="chart"></div>
<h2>Trades</h2><table id="trades"><tr><th>Strategy</th><th>Symbol</th><th>Side</th><th>Opened</th><th>Closed</th><th>Qty</th><th>Entry</th><th>Exit</th><th>Gross</th><th>Costs</th><th>Net</th></tr>${trades}</table>
<h2>Fills</h2><table id="fills"><tr><th>Time</th><th>Strategy</th><th>Symbol</th><th>Side</th><th>Qty</th><th>Price</th></tr>${fills}</table>
<script>${charts()}</script>
<script>
const data = ${scriptJson(series)};
const LWC = window.LightweightCharts;
const opts = { autoSize: true, layout: { background: { color: '#ffffff' }, textColor: '#1d2330' },
  timeScale: { timeVisible: true, secondsVisible: false }, rightPriceScale: { borderVisible: false } };
const eq = LWC.createChart(document.getElementById('equity'), opts);
eq.addSeries(LWC.AreaSeries, { lineColor: '#2962ff', topColor: 'rgba(41,98,255,0.3)', bottomColor: 'rgba(41,98,255,0.02)' })
  .setData(data.map((p) => ({ time: p.time, value: p.e })));
eq.timeScale().fitContent();
const dd = LWC.createChart(document.getElementById('drawdown'), opts);
dd.addSeries(LWC.AreaSeries, { lineColor: '#c0262d', topColor: 'rgba(192,38,45,0.02)', bottomColor: 'rgba(192,38,45,0.3)', invertFilledArea: true })
  .setData(data.map((p) => ({ time: p.time, value: p.d })));
dd.timeScale().fitContent();
window.__chartsReady = true;
</script>
</body></html>
`;
}
