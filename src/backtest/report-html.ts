import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type Analysis, analyze } from './report/analysis.ts';
import { chartData } from './report/chart-data.ts';
import { clientScript } from './report/client-script.ts';
import { esc } from './report/format.ts';
import { pageShellParts } from './report/page-shell.ts';
import { runSection } from './report/run-section.ts';
import { summarySection } from './report/summary-section.ts';
import { tablesSectionParts } from './report/tables-section.ts';
import { MARKER_COLORS } from './report/trade-markers.ts';
import type { BacktestResult } from './run-backtest.ts';

const require = createRequire(import.meta.url);
const capitalised = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

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

/**
 * A self-contained HTML report: the summary and trade statistics, the params and the
 * spec, the equity curve against a buy-and-hold benchmark, the drawdown below the peak,
 * a price chart per traded instrument with its fills and the strategies' plots, tables
 * by symbol, strategy and exit reason, daily and monthly returns, the round trips (exit
 * reason, duration, MAE/MFE), the rejected orders and the fills. Charts are interactive
 * lightweight-charts (inlined, so the page works offline); money is ₹ in Indian
 * grouping, times IST. One file, no network.
 *
 * @example
 * ```ts
 * await writeFile('report.html', reportHtml(result));
 * ```
 */
export function reportHtml(result: BacktestResult, analysis: Analysis = analyze(result)): string {
  return [...reportHtmlParts(result, analysis)].join('');
}

/**
 * {@link reportHtml}'s text in parts, the same bytes once joined: the page up to its
 * tables, the tables a couple of hundred rows a part, the charting library, the page's
 * script. `writeReport` writes them as they come, so a month's page (a megabyte, most of
 * it the fills and trades tables) is never one string in memory.
 */
export function* reportHtmlParts(
  result: BacktestResult,
  analysis: Analysis = analyze(result),
): Generator<string> {
  const data = chartData(result, analysis);
  const bench =
    data.benchmark === null
      ? ''
      : ` against buy &amp; hold of ${esc(data.benchmark)} (dashed), same capital`;
  const prices = data.instruments
    .map(
      (i) =>
        `<h3>${esc(i.symbol)}</h3><div id="price-${i.token}" class="chart${i.plots.some((p) => !p.overlay) ? ' tall' : ''}" data-symbol="${esc(i.symbol)}"></div>`,
    )
    .join('\n');
  // Said above every chart: a long run is drawn in coarser bars than the data holds.
  const res = data.resolution;
  const coarse =
    res.label === '1m'
      ? ''
      : ` Drawn in ${res.words} bars so the whole run fits (report.json keeps every sample).`;
  const resolution = `<span class="resolution" data-resolution="${res.label}">${esc(coarse)}</span>`;
  const missing = result.missingData;
  // A run with --allow-missing says, before any figure, which subscribed tokens had no data.
  const warning =
    missing === undefined || missing.missing.length === 0
      ? ''
      : `<p id="missing-data" class="warning">WARNING: strategies subscribed to tokens the data does not hold: ${missing.missing
          .map((m) => esc(m.symbol === undefined ? String(m.token) : `${m.symbol} (${m.token})`))
          .join(', ')}. The data (${missing.contents.kind}) holds ${missing.contents.tokens
          .map((t) => esc(t.symbol ?? String(t.token)))
          .join(', ')}.</p>`;
  // Notes on the data and failed strategies change what every figure means: shown first too.
  const notes = [
    ...(result.warnings ?? []),
    ...Object.entries(result.failures ?? {}).map(([id, why]) => `strategy ${id} failed: ${why}`),
  ]
    .map((n) => `<p class="warning data-note">WARNING: ${esc(n)}</p>`)
    .join('\n');
  const head = `<h1>Backtest: ${esc(result.name)}</h1>
${warning}${notes}
${summarySection(result, analysis)}
${runSection(result)}
<h2>Equity</h2><p class="axis-note">Equity in ₹${bench}, before costs for buy &amp; hold.${resolution}</p><div id="equity" class="chart"></div>
<h2>Drawdown</h2><p class="axis-note">Drawdown: % below the running peak (0 at a new high, negative below it); a bar shows its deepest point.${resolution}</p><div id="drawdown" class="chart"></div>
<h2>Prices</h2><p class="axis-note">${esc(capitalised(res.words))} candles in ₹. A marker per trade: <b style="color:${MARKER_COLORS.longEntry}">▲ long entry</b>, <b style="color:${MARKER_COLORS.longExit}">▼ its exit</b>, <b style="color:${MARKER_COLORS.shortEntry}">▼ short entry</b>, <b style="color:${MARKER_COLORS.shortExit}">▲ its exit</b>, at the average entry and the exit price (labelled with the exit's reason when not the strategy's own). Strategy plots over the price or in a pane below.</p>
<div id="prices">${prices === '' ? '<p>No traded instrument.</p>' : prices}</div>
<div class="scroll">`;
  const body = (function* (): Generator<string> {
    yield head;
    yield* tablesSectionParts(result, analysis);
    yield '</div>';
  })();
  yield* pageShellParts(`Backtest ${result.name}`, body, charts(), () => clientScript(data));
}
