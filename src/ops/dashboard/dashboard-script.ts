/**
 * The page's script, plain browser JavaScript (no build step): renders each snapshot
 * and update pushed on `/api/events`, draws the PnL curve with lightweight-charts (whole
 * from the first event, then point by point), and posts the
 * controls after a confirm. The cookie the page was opened with authenticates both.
 * Money arrives in paise and shows as ₹ in Indian grouping; times show in IST.
 */
export const dashboardScript = `
(function () {
  'use strict';
  var IST = 19800;
  var inr = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });
  function rupees(p) { return p === undefined || p === null ? '' : inr.format(p / 100); }
  function time(ms) {
    return new Date(ms).toLocaleTimeString('en-IN', { timeZone: 'Asia/Kolkata', hour12: false });
  }
  function esc(v) {
    return String(v === undefined || v === null ? '' : v).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function cls(p) { return p > 0 ? 'n pos' : p < 0 ? 'n neg' : 'n'; }
  function money(p) { return '<td class="' + cls(p) + '">' + esc(rupees(p)) + '</td>'; }
  function table(id, head, rows) {
    var h = '<tr>' + head.map(function (x) {
      return '<th' + (x[1] ? ' class="n"' : '') + '>' + esc(x[0]) + '</th>';
    }).join('') + '</tr>';
    document.getElementById(id).innerHTML = h + (rows.join('') || '<tr><td><small>none</small></td></tr>');
  }
  var chart = LightweightCharts.createChart(document.getElementById('chart'), {
    layout: { background: { color: '#0f1419' }, textColor: '#d6dde6' },
    grid: { vertLines: { color: '#1c2733' }, horzLines: { color: '#1c2733' } },
    timeScale: { timeVisible: true, secondsVisible: false },
  });
  var curve = chart.addSeries(LightweightCharts.BaselineSeries, { baseValue: { type: 'price', price: 0 } });

  function orderRows(orders) {
    return orders.map(function (o) {
      var steps = o.lifecycle.map(function (s) {
        var what = s.price !== undefined ? ' ' + s.quantity + ' @ ' + rupees(s.price) : s.reason ? ': ' + s.reason : '';
        return time(s.at) + ' ' + s.type.replace(/^Order/, '') + what;
      }).join(' → ');
      var price = o.price !== undefined ? rupees(o.price) : o.orderType;
      if (o.triggerPrice !== undefined) price += ' trg ' + rupees(o.triggerPrice);
      return '<tr data-status="' + esc(o.status) + '" data-token="' + esc(o.token) + '"><td>' +
        esc(time(o.placedAt)) + '</td><td>' + esc(o.strategyId) + (o.system ? ' <small>system</small>' : '') +
        '</td><td>' + esc(o.side === 'B' ? 'BUY' : 'SELL') + '</td><td>' + esc(o.symbol) +
        '</td><td class="n">' + esc(o.filledQuantity + '/' + o.quantity) + '</td><td>' + esc(price) +
        '</td><td>' + esc(o.product) + '</td><td>' + esc(o.status) + '</td><td><small>' + esc(steps) +
        '</small></td></tr>';
    });
  }
  var ORDER_HEAD = [['placed'], ['strategy'], ['side'], ['symbol'], ['filled', 1], ['price'], ['product'], ['status'], ['lifecycle']];

  function render(s) {
    document.getElementById('mode').textContent = s.mode;
    document.getElementById('clock').textContent = time(s.at) + ' IST';
    var total = s.totals.realised + s.totals.unrealised;
    var t = document.getElementById('total');
    t.textContent = rupees(total) + ' (realised ' + rupees(s.totals.realised) + ')';
    t.className = cls(total);
    var d = document.getElementById('data');
    d.textContent = s.marketData.status;
    d.className = s.marketData.status === 'ok' ? 'pos' : 'warn';
    var k = document.getElementById('kill');
    k.textContent = s.killSwitch.tripped ? 'TRIPPED' : 'armed';
    k.className = s.killSwitch.tripped ? 'bad' : 'pos';
    document.getElementById('paused').textContent = s.tradingPaused ? 'trading paused: ' + s.tradingPaused : '';
    table('strategies', [['strategy'], ['state'], ['realised', 1], ['unrealised', 1], ['open', 1], ['']],
      s.strategies.map(function (x) {
        var state = x.status + (x.paused ? ' (paused)' : '');
        var b = x.paused
          ? '<button data-act="resume" data-id="' + esc(x.id) + '">Resume</button>'
          : '<button data-act="pause" data-id="' + esc(x.id) + '">Pause</button>';
        return '<tr data-strategy="' + esc(x.id) + '" data-paused="' + x.paused + '"><td>' + esc(x.id) +
          '</td><td class="' + (x.status === 'failed' ? 'bad' : x.paused ? 'warn' : '') + '">' + esc(state) +
          '</td>' + money(x.realised) + money(x.unrealised) + '<td class="n">' + x.openPositions +
          '</td><td>' + b + '</td></tr>';
      }));
    table('positions', [['strategy'], ['symbol'], ['net', 1], ['avg', 1], ['last', 1], ['realised', 1], ['unrealised', 1], ['']],
      s.positions.map(function (p) {
        var b = p.netQuantity !== 0
          ? '<button data-act="square-off" data-token="' + esc(p.token) + '" data-symbol="' + esc(p.symbol) + '">Square off</button>'
          : '';
        return '<tr data-token="' + esc(p.token) + '" data-net="' + p.netQuantity + '"><td>' + esc(p.strategyId) +
          '</td><td>' + esc(p.symbol) + '</td><td class="n">' + p.netQuantity + '</td><td class="n">' +
          esc(rupees(p.averagePrice)) + '</td><td class="n">' + esc(rupees(p.lastPrice)) + '</td>' +
          money(p.realised) + money(p.unrealised) + '<td>' + b + '</td></tr>';
      }));
    table('working', ORDER_HEAD, orderRows(s.orders.working));
    table('recent', ORDER_HEAD, orderRows(s.orders.recent));
    var md = s.marketData;
    document.getElementById('market').innerHTML = 'status <b>' + esc(md.status) + '</b>, ' + md.quoteTokens +
      ' tokens; stale: ' + esc(md.staleTokens.join(', ') || 'none') + '; rejected: ' +
      esc(md.rejectedTokens.join(', ') || 'none');
    table('controls', [['time'], ['who'], ['action'], ['target'], ['outcome'], ['detail']],
      s.controls.slice().reverse().map(function (r) {
        return '<tr><td>' + esc(time(r.at)) + '</td><td>' + esc(r.who) + '</td><td>' + esc(r.action) +
          '</td><td>' + esc(r.strategy || r.token || '') + '</td><td>' + esc(r.outcome) + '</td><td>' +
          esc(r.detail) + '</td></tr>';
      }));
    if (s.pnlCurve) setCurve(s.pnlCurve);
    else if (s.pnl) addToCurve(s.pnl);
  }

  // The whole curve comes with a stream's first event (and from /api/status); each later
  // push brings its newest point, added when it follows on from the curve drawn.
  // What is drawn, also on the chart's element (data-points, data-last, data-value,
  // data-refetches) for whoever inspects the page.
  var drawn = { start: undefined, count: 0, last: undefined };
  var chartEl = document.getElementById('chart');
  var refetches = 0;
  function chartPoint(p) { return { time: p.time + IST, value: p.value / 100 }; }
  function shown(value) {
    chartEl.dataset.points = String(drawn.count);
    chartEl.dataset.last = drawn.last === undefined ? '' : String(drawn.last);
    chartEl.dataset.value = value === undefined ? '' : String(value);
    chartEl.dataset.refetches = String(refetches);
  }
  function setCurve(points) {
    curve.setData(points.map(chartPoint));
    drawn.start = points.length ? points[0].time : undefined;
    drawn.count = points.length;
    drawn.last = points.length ? points[points.length - 1].time : undefined;
    shown(points.length ? points[points.length - 1].value : undefined);
  }
  var asking = false;
  function addToCurve(tail) {
    var n = tail.last.length;
    var newest = tail.last[n - 1];
    var same = tail.start === drawn.start;
    if (n === 0 ? drawn.count === 0 : same && tail.count === drawn.count && newest.time === drawn.last) {
      // The newest point took another sample.
      if (n > 0) curve.update(chartPoint(newest));
      shown(n > 0 ? newest.value : undefined);
      return;
    }
    // One more point; or, at the curve's cap (6 000), as many, the oldest dropped.
    var after = n > 0 && (drawn.count === 0 ? tail.count === 1
      : (same && tail.count === drawn.count + 1) || (!same && tail.count === drawn.count && n === 2));
    if (after && (n === 1 || tail.last[0].time === drawn.last)) {
      // A new point: the one before it may have moved since it was drawn.
      tail.last.forEach(function (p) { curve.update(chartPoint(p)); });
      drawn.start = tail.start;
      drawn.count = tail.count;
      drawn.last = newest.time;
      shown(newest.value);
      return;
    }
    // A new day, or a push this page missed: the whole curve again.
    if (asking) return;
    asking = true;
    refetches += 1;
    fetch('/api/status', { credentials: 'same-origin' }).then(function (r) { return r.json(); })
      .then(function (full) { setCurve(full.pnlCurve); }, function () {})
      .then(function () { asking = false; });
  }

  function post(path, body, question) {
    if (!window.confirm(question)) return;
    fetch(path, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body || {}),
    }).then(function (r) { return r.json(); }).then(function (r) {
      if (r.outcome === 'refused') window.alert('refused: ' + r.detail);
    }, function (err) { window.alert('failed: ' + err); });
  }
  document.addEventListener('click', function (e) {
    var b = e.target.closest('button');
    if (!b) return;
    if (b.id === 'square-off-all')
      post('/api/square-off-all', {}, 'Square off EVERY position and pause every strategy?');
    else if (b.id === 'kill-switch')
      post('/api/kill-switch', {}, 'Trip the kill switch? No new entries for the rest of the day.');
    else if (b.dataset.act === 'pause' || b.dataset.act === 'resume')
      post('/api/strategies/' + encodeURIComponent(b.dataset.id) + '/' + b.dataset.act, {},
        b.dataset.act + ' strategy ' + b.dataset.id + '?');
    else if (b.dataset.act === 'square-off')
      post('/api/positions/' + b.dataset.token + '/square-off', {}, 'Square off ' + b.dataset.symbol + '?');
  });

  var link = document.getElementById('link');
  var events = new EventSource('/api/events');
  events.addEventListener('status', function (m) {
    link.textContent = 'live';
    link.className = 'pos';
    render(JSON.parse(m.data));
  });
  events.onerror = function () {
    link.textContent = 'reconnecting…';
    link.className = 'warn';
  };
})();
`;
