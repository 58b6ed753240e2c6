import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { dashboardScript } from './dashboard-script.ts';

const require = createRequire(import.meta.url);

/** The page, built once: the lightweight-charts bundle is inlined, so no build step and no CDN. */
let page: string | undefined;

const STYLE = `
body{font:14px system-ui,sans-serif;margin:0;background:#0f1419;color:#d6dde6}
header{display:flex;gap:1.5em;align-items:center;padding:.6em 1em;background:#17202a;flex-wrap:wrap}
header b{font-size:1.1em}
main{padding:0 1em 2em}
section{margin-top:1.2em}
h2{font-size:1em;margin:.2em 0;color:#9fb3c8;text-transform:uppercase;letter-spacing:.05em}
table{border-collapse:collapse;width:100%}
th,td{padding:.25em .6em;text-align:left;border-bottom:1px solid #243140;white-space:nowrap}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
.pos{color:#4caf50}.neg{color:#ef5350}.warn{color:#ffb300}.bad{color:#ef5350;font-weight:bold}
.badge{padding:.1em .5em;border-radius:.3em;background:#243140}
button{background:#243140;color:#d6dde6;border:1px solid #3a4d63;border-radius:.3em;padding:.2em .7em;cursor:pointer}
button.danger{background:#7f1d1d;border-color:#b91c1c}
#chart{height:220px}
small{color:#7d8fa3}
`;

const BODY = `
<header>
  <b>tiqs-runner</b>
  <span id="mode" class="badge"></span>
  <span>market time <span id="clock">–</span></span>
  <span>PnL <span id="total">–</span></span>
  <span>data <span id="data">–</span></span>
  <span>kill switch <span id="kill">–</span></span>
  <span id="paused" class="bad"></span>
  <span id="link" class="warn">connecting…</span>
  <span style="margin-left:auto">
    <button id="square-off-all" class="danger">Square off all</button>
    <button id="kill-switch" class="danger">Trip kill switch</button>
  </span>
</header>
<main>
  <section><h2>Intraday PnL (₹)</h2><div id="chart"></div></section>
  <section><h2>Strategies</h2><table id="strategies"></table></section>
  <section><h2>Positions</h2><table id="positions"></table></section>
  <section><h2>Working orders</h2><table id="working"></table></section>
  <section><h2>Recent orders</h2><table id="recent"></table></section>
  <section><h2>Market data</h2><div id="market"></div></section>
  <section><h2>Controls</h2><table id="controls"></table></section>
</main>
`;

/**
 * The dashboard's one HTML page: tables and a chart filled by its script from the
 * server-sent snapshots (`/api/events`), and buttons that post the controls after a
 * confirm. Self-contained: styles, script and lightweight-charts are inline.
 */
export function dashboardPage(): string {
  page ??= `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>tiqs-runner dashboard</title><style>${STYLE}</style></head><body>${BODY}
<script>${charts()}</script><script>${dashboardScript}</script></body></html>`;
  return page;
}

function charts(): string {
  // The package's exports hide the standalone bundle; it sits next to the main entry.
  return readFileSync(
    join(
      dirname(require.resolve('lightweight-charts/package.json')),
      'dist/lightweight-charts.standalone.production.js',
    ),
    'utf8',
  ).replaceAll('</script', '<\\/script');
}
