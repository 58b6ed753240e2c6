import { formatInr } from '../domain/money.ts';
import type { RankMetric } from './backtest-spec.ts';
import { SWEEP_SCRIPT } from './sweep-html-script.ts';
import type { SweepResult } from './sweep-protocol.ts';

/** What `sweep.html` shows: the ranked results of one sweep. */
export interface SweepPage {
  spec: string;
  rankBy: RankMetric;
  /** Best first, as `rankResults` ordered them. */
  results: readonly SweepResult[];
}

/** The metrics as columns and heatmap choices; money in paise, shown as ₹. */
const METRICS = [
  { key: 'netPnl', label: 'Net PnL', money: true },
  { key: 'returnPercent', label: 'Return', percent: true },
  { key: 'sharpe', label: 'Sharpe' },
  { key: 'winRate', label: 'Win rate', percent: true },
  { key: 'profitFactor', label: 'Profit factor' },
  { key: 'maxDrawdown', label: 'Max drawdown', money: true, lowerIsBetter: true },
  { key: 'maxDrawdownPercent', label: 'Max DD %', percent: true, lowerIsBetter: true },
  { key: 'trades', label: 'Trades' },
  { key: 'rejected', label: 'Rejected', lowerIsBetter: true },
  { key: 'denied', label: 'Denied', lowerIsBetter: true },
] as const;

type MetricKey = (typeof METRICS)[number]['key'];

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

/** One run as the page's script reads it: params, the metrics, and how it went. */
function runRow(r: SweepResult, rank: number): Record<string, unknown> {
  const base = { id: r.id, rank, params: r.params, ok: r.ok };
  if (!r.ok) return { ...base, error: r.error, rejected: 0, denied: 0 };
  const s = r.summary;
  const metrics = Object.fromEntries(METRICS.map((m) => [m.key, s[m.key] ?? 0]));
  return { ...base, ...metrics, profitFactor: s.profitFactor };
}

function cellText(key: MetricKey, r: SweepResult): string {
  if (!r.ok) return '';
  const s = r.summary;
  const m = METRICS.find((x) => x.key === key);
  const v = s[key];
  if (v === null) return s.trades > 0 ? '∞' : '–';
  if (m !== undefined && 'money' in m) return formatInr(v ?? 0);
  return m !== undefined && 'percent' in m ? `${v}%` : String(v ?? 0);
}

/**
 * `sweep.html`: one self-contained page (script inlined, no network) with every run of a
 * sweep in a table sortable by any column (params, metrics, rejections), runs that had
 * rejected orders marked (denied ones only counted), and a heatmap over any two swept params with a
 * metric to colour by (each cell the best run there over the other params).
 *
 * @example
 * ```ts
 * await writeFile(join(out, 'sweep.html'), sweepHtml({ spec: 'sma', rankBy: 'sharpe', results }));
 * ```
 */
export function sweepHtml(page: SweepPage): string {
  const params = [...new Set(page.results.flatMap((r) => Object.keys(r.params)))].sort();
  const runs = page.results.map((r, i) => runRow(r, i + 1));
  // Only the venue's or the engine's rejections mark a run (denials are risk rules at work).
  const ok = page.results.filter((r) => r.ok);
  const marked = ok.filter((r) => r.summary.rejected > 0);
  const failed = page.results.filter((r) => !r.ok).length;
  const head = [
    '<th data-key="rank" aria-sort="ascending">Rank</th>',
    ...params.map((p) => `<th data-key="p:${esc(p)}">${esc(p)}</th>`),
    ...METRICS.map((m) => `<th data-key="${m.key}">${esc(m.label)}</th>`),
    '<th data-key="ok">Status</th>',
  ].join('');
  const body = page.results
    .map((r, i) => {
      const rejected = r.ok && r.summary.rejected > 0;
      const cls = !r.ok ? 'failed' : rejected ? 'rejected' : '';
      const lacking =
        r.ok && r.missing !== undefined && r.missing.length > 0
          ? ` ⚠ data lacks ${esc(r.missing.map((t) => (t.symbol === undefined ? String(t.token) : `${t.token} (${t.symbol})`)).join(', '))}`
          : '';
      const status = !r.ok
        ? `failed: ${esc(r.error)}`
        : `${rejected ? '⚠ rejections' : lacking === '' ? 'clean' : ''}${lacking}`.trim();
      return `<tr data-id="${r.id}" class="${cls}"><td>${i + 1}</td>${params
        .map((p) => `<td>${esc(String(r.params[p] ?? ''))}</td>`)
        .join(
          '',
        )}${METRICS.map((m) => `<td>${cellText(m.key, r)}</td>`).join('')}<td>${status}</td></tr>`;
    })
    .join('\n');
  const option = (value: string, label: string, selected: boolean): string =>
    `<option value="${esc(value)}"${selected ? ' selected' : ''}>${esc(label)}</option>`;
  const xOptions = params.map((p, i) => option(p, p, i === 0)).join('');
  const yOptions = [
    option('', '(none)', params.length < 2),
    ...params.map((p, i) => option(p, p, i === 1)),
  ].join('');
  const metricOptions = METRICS.map((m) => option(m.key, m.label, m.key === page.rankBy)).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sweep ${esc(page.spec)}</title>
<style>
body{font:14px system-ui,sans-serif;margin:24px;color:#1d2330;background:#fff}
h1{font-size:20px}h2{font-size:16px;margin-top:28px}
table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;border-bottom:1px solid #e3e6ec;text-align:right}
#runs th{cursor:pointer;user-select:none;background:#f4f6f9}#runs th[aria-sort=ascending]::after{content:' ▲'}
#runs th[aria-sort=descending]::after{content:' ▼'}
tr.rejected td{background:#fff6e0}tr.failed td{color:#888}
.heat td.cell{min-width:80px;text-align:center;border:1px solid #fff}.heat td.rejected{outline:2px dashed #c07a00}
label{margin-right:16px}
</style></head><body>
<h1>Sweep: ${esc(page.spec)}</h1>
<p id="sweep-note">${page.results.length} runs ranked by ${esc(page.rankBy)}.${
    marked.length === 0
      ? ''
      : marked.length === ok.length
        ? ` All ${marked.length} had orders rejected by the venue or the engine (marked ⚠): none to rank them after.`
        : ` ${marked.length} had orders rejected by the venue or the engine (marked ⚠): ranked after the others.`
  } Denied orders (risk rules, such as no entry after the square-off time) are counted, not ranked on.${failed === 0 ? '' : ` ${failed} failed.`} Money in rupees.</p>
<h2>Heatmap</h2>
<p><label>x <select id="hm-x">${xOptions}</select></label>
<label>y <select id="hm-y">${yOptions}</select></label>
<label>metric <select id="hm-metric">${metricOptions}</select></label></p>
<div id="heatmap"></div>
<p>Each cell: the best run at that x and y over the other params (a run with rejected orders only where no other one is); hover for its params.</p>
<h2>Runs</h2>
<table id="runs"><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table>
<script>window.__sweep = ${scriptJson({ params, metrics: METRICS, runs })};</script>
<script>${SWEEP_SCRIPT}</script>
</body></html>
`;
}
