/**
 * The browser side of `sweep.html`, inlined as text (no front-end build, no network):
 * sorts the runs table on a header click and draws the heatmap for the chosen x and y
 * params and metric. Reads `window.__sweep` ({ params, metrics, runs }); sets
 * `window.__sweepReady` once drawn. Plain ES2020 for any current browser.
 */
export const SWEEP_SCRIPT = String.raw`
(() => {
  const data = window.__sweep;
  const inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR', minimumFractionDigits: 2, maximumFractionDigits: 2 });
  // Param names and values come from the spec (a symbol like M&M-EQ, a string with <):
  // text, never markup, in the heatmap's HTML.
  const esc = (v) => String(v).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  const metric = (key) => data.metrics.find((m) => m.key === key);
  const fmt = (m, v, run) => {
    if (v === null || v === undefined) return m.key === 'profitFactor' && run && run.trades > 0 ? '∞' : '–';
    if (m.money) return inr.format(v / 100);
    return m.percent ? v + '%' : String(v);
  };
  // Sortable value: a profit factor of null with trades means no losing trade (best).
  const sortValue = (run, key) => {
    const v = key.startsWith('p:') ? run.params[key.slice(2)] : run[key];
    if (key === 'profitFactor' && v === null && run.trades > 0) return Infinity;
    return v === undefined ? null : v;
  };

  // --- sortable table ---------------------------------------------------------------
  const table = document.getElementById('runs');
  const tbody = table.querySelector('tbody');
  let sortKey = 'rank';
  let ascending = true;
  const sortBy = (key) => {
    ascending = key === sortKey ? !ascending : key === 'rank' || key.startsWith('p:');
    sortKey = key;
    const rows = [...tbody.rows];
    const byId = new Map(data.runs.map((r) => [String(r.id), r]));
    rows.sort((a, b) => {
      const x = sortValue(byId.get(a.dataset.id), key);
      const y = sortValue(byId.get(b.dataset.id), key);
      if (x === y) return 0;
      if (x === null) return 1;
      if (y === null) return -1;
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
      return ascending ? c : -c;
    });
    for (const r of rows) tbody.appendChild(r);
    for (const th of table.tHead.rows[0].cells) {
      th.setAttribute('aria-sort', th.dataset.key === key ? (ascending ? 'ascending' : 'descending') : 'none');
    }
  };
  for (const th of table.tHead.rows[0].cells) th.addEventListener('click', () => sortBy(th.dataset.key));

  // --- heatmap ----------------------------------------------------------------------
  const xs = document.getElementById('hm-x');
  const ys = document.getElementById('hm-y');
  const ms = document.getElementById('hm-metric');
  const box = document.getElementById('heatmap');
  const values = (p) => [...new Set(data.runs.filter((r) => r.ok).map((r) => r.params[p]))].sort((a, b) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)));
  const color = (t) => 'hsl(' + Math.round(120 * t) + ', 70%, ' + (78 - 18 * Math.abs(t - 0.5)) + '%)';
  const draw = () => {
    const x = xs.value;
    const y = ys.value;
    const m = metric(ms.value);
    const better = (a, b) => (m.lowerIsBetter ? a < b : a > b);
    const cols = values(x);
    const rowsOf = y === '' ? [undefined] : values(y);
    // Each cell: the best run at (x, y) over the other params (and rejected runs only
    // when no clean run is there, as the ranking has it).
    const cells = new Map();
    for (const run of data.runs) {
      if (!run.ok) continue;
      const k = JSON.stringify([run.params[x], y === '' ? null : run.params[y]]);
      const v = sortValue(run, m.key);
      const cur = cells.get(k);
      // Only rejections (venue, engine) count against a run; denials are risk rules at work.
      const clean = run.rejected === 0;
      if (cur === undefined || (clean && !cur.clean) ||
        (clean === cur.clean && v !== null && (cur.v === null || better(v, cur.v)))) {
        cells.set(k, { v, run, clean, count: (cur ? cur.count : 0) + 1 });
      } else cur.count += 1;
    }
    // The colour scale spans the clean cells (a run with rejections, often an outlier,
    // would flatten it) and clamps the others; all cells when none is clean.
    const all = [...cells.values()];
    const scaled = all.some((c) => c.clean) ? all.filter((c) => c.clean) : all;
    const finite = scaled.map((c) => c.v).filter((v) => typeof v === 'number' && Number.isFinite(v));
    const lo = Math.min(...finite);
    const hi = Math.max(...finite);
    const scale = (v) => {
      if (v === null) return null;
      if (!Number.isFinite(v)) return m.lowerIsBetter ? 0 : 1;
      const t = hi === lo ? 0.5 : Math.min(1, Math.max(0, (v - lo) / (hi - lo)));
      return m.lowerIsBetter ? 1 - t : t;
    };
    const head = '<tr><th>' + (y === '' ? '' : esc(y) + ' ↓ / ') + esc(x) + ' →</th>' + cols.map((c) => '<th>' + esc(c) + '</th>').join('') + '</tr>';
    const body = rowsOf.map((rv) => '<tr><th>' + (rv === undefined ? '' : esc(rv)) + '</th>' + cols.map((cv) => {
      const c = cells.get(JSON.stringify([cv, rv === undefined ? null : rv]));
      if (c === undefined) return '<td class="cell empty">–</td>';
      const t = scale(c.v);
      const tip = Object.entries(c.run.params).map(([k, v]) => k + '=' + v).join(', ') + '\n' + m.label + ': ' + fmt(m, c.v, c.run) +
        (c.count > 1 ? '\nbest of ' + c.count + ' runs' : '') + (c.clean ? '' : '\nhad rejected orders');
      return '<td class="cell' + (c.clean ? '' : ' rejected') + '" title="' + esc(tip) + '" style="background:' +
        (t === null ? '#eee' : color(t)) + '">' + fmt(m, c.v, c.run) + (c.clean ? '' : ' ⚠') + '</td>';
    }).join('') + '</tr>').join('');
    box.innerHTML = '<table class="heat">' + head + body + '</table>';
  };
  for (const s of [xs, ys, ms]) s.addEventListener('change', draw);
  draw();
  window.__sweepReady = true;
})();
`;
