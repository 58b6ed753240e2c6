import type { ChartData } from './chart-data.ts';
import { scriptJson } from './format.ts';

/**
 * The page's script: draws the equity chart (with the benchmark line), the drawdown
 * chart (a negative % below the peak) and a candlestick chart per traded instrument
 * (a marker per trade entry and exit, plots over the price or in a pane below) with
 * lightweight-charts, which the page inlines. Prices read as ₹ in Indian grouping
 * (`Intl.NumberFormat('en-IN')`); every chart sizes itself to its box (`autoSize`), so
 * it follows the window. Every table sorts by a click on a column's header.
 * `window.__charts` exposes the charts to the browser test.
 */
export function clientScript(data: ChartData): string {
  return `
const R = ${scriptJson(data)};
const LWC = window.LightweightCharts;
const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
const plain = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 });
const base = (formatter) => ({
  autoSize: true,
  layout: { background: { color: '#ffffff' }, textColor: '#1d2330', panes: { separatorColor: '#c9ced8' } },
  // chart-data keeps a run to ≤ 2,000 bars; a low minimum spacing lets them all fit a narrow window.
  timeScale: { timeVisible: true, secondsVisible: false, minBarSpacing: 0.1 },
  rightPriceScale: { borderVisible: false },
  localization: { priceFormatter: formatter },
});
const custom = (formatter) => ({ priceFormat: { type: 'custom', formatter, minMove: 0.01 } });
const rupees = custom((v) => inr.format(v));
const percent = (v) => v.toFixed(2) + '%';
const charts = { equity: null, drawdown: null, prices: {} };
// Opens on the whole run, with a little room each side so an edge marker's label is not cut.
const fit = (chart, times) => {
  const n = new Set(times).size;
  const pad = Math.max(2, Math.round(n * 0.02));
  chart.timeScale().setVisibleLogicalRange({ from: -pad, to: n - 1 + pad });
};
const eq = LWC.createChart(document.getElementById('equity'), base((v) => inr.format(v)));
eq.addSeries(LWC.AreaSeries, { ...rupees, title: 'Strategy', lineColor: '#2962ff', topColor: 'rgba(41,98,255,0.3)', bottomColor: 'rgba(41,98,255,0.02)' })
  .setData(R.equity.map((p) => ({ time: p.time, value: p.e })));
let benchmark = null;
if (R.benchmark !== null) {
  benchmark = eq.addSeries(LWC.LineSeries, { ...rupees, title: 'Buy & hold ' + R.benchmark, color: '#8a8f99', lineWidth: 1, lineStyle: 2 });
  benchmark.setData(R.equity.filter((p) => p.b !== null).map((p) => ({ time: p.time, value: p.b })));
}
fit(eq, R.equity.map((p) => p.time));
charts.equity = { chart: eq, benchmark };
// A drawdown is never above 0: the scale's top stays at 0, however it autoscales (and no
// margin adds headroom above it).
const dd = LWC.createChart(document.getElementById('drawdown'), { ...base(percent), rightPriceScale: { borderVisible: false, scaleMargins: { top: 0, bottom: 0.1 } } });
const noHeadroom = (original) => { const r = original(); if (r !== null) r.priceRange.maxValue = 0; return r; };
dd.addSeries(LWC.AreaSeries, { ...custom(percent), autoscaleInfoProvider: noHeadroom, title: '% below peak', lineColor: '#c0262d', topColor: 'rgba(192,38,45,0.02)', bottomColor: 'rgba(192,38,45,0.3)', invertFilledArea: true })
  .setData(R.equity.map((p) => ({ time: p.time, value: p.d })));
fit(dd, R.equity.map((p) => p.time));
charts.drawdown = { chart: dd };
// Plot colours apart from the candles' and the trade markers' (blue, purple, orange, black).
const colors = ['#00897b', '#c2185b', '#f9a825', '#5d4037', '#546e7a', '#7cb342'];
for (const ins of R.instruments) {
  const chart = LWC.createChart(document.getElementById('price-' + ins.token), base((v) => inr.format(v)));
  const candles = chart.addSeries(LWC.CandlestickSeries, { ...rupees, title: ins.symbol, upColor: '#0a7f3f', downColor: '#c0262d', wickUpColor: '#0a7f3f', wickDownColor: '#c0262d', borderVisible: false });
  candles.setData(ins.bars);
  const markers = LWC.createSeriesMarkers(candles, ins.markers);
  let pane = 0;
  ins.plots.forEach((p, i) => {
    const options = { title: p.name, color: colors[i % colors.length], lineWidth: 1, priceLineVisible: false };
    if (p.overlay) chart.addSeries(LWC.LineSeries, { ...options, ...rupees }).setData(p.points);
    else chart.addSeries(LWC.LineSeries, { ...options, ...custom((v) => plain.format(v)) }, ++pane).setData(p.points);
  });
  fit(chart, [...ins.bars.map((b) => b.time), ...ins.plots.flatMap((p) => p.points.map((x) => x.time))]);
  charts.prices[ins.token] = { chart, markers };
}
window.__charts = charts;
// Tables sort by a click on a column's header (again: the other way). Cells read as a
// duration, an amount or percentage (₹, grouping and a trailing '(…)' ignored), else text.
const cellValue = (text) => {
  const t = text.trim();
  const d = /^(?:(\\d+)d )?(?:(\\d+)h ?)?(?:(\\d+)m ?)?(?:(\\d+)s)?$/.exec(t);
  if (t !== '' && d !== null) return ((+(d[1] ?? 0) * 24 + +(d[2] ?? 0)) * 60 + +(d[3] ?? 0)) * 60 + +(d[4] ?? 0);
  const n = Number(t.replace(/\\(.*\\)$/, '').replace(/[₹,%\\s]/g, '').replace('−', '-'));
  return t !== '' && Number.isFinite(n) ? n : t;
};
for (const table of document.querySelectorAll('table:has(thead)')) {
  table.querySelectorAll('thead th').forEach((th, col) => {
    th.style.cursor = 'pointer';
    th.title = 'Sort';
    th.addEventListener('click', () => {
      const body = table.tBodies[0];
      const down = th.dataset.sorted !== 'up';
      for (const h of table.querySelectorAll('thead th')) delete h.dataset.sorted;
      th.dataset.sorted = down ? 'up' : 'down';
      const rows = [...body.rows].map((r) => [cellValue(r.cells[col]?.textContent ?? ''), r]);
      rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0) * (down ? 1 : -1));
      for (const [, r] of rows) body.appendChild(r);
    });
  });
}
window.__chartsReady = true;
`;
}
