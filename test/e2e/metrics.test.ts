import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, waitForExit } from './helpers/child-process.ts';
import { E2eWorld } from './helpers/e2e-world.ts';
import { isEvent, waitForLog } from './helpers/wait-log.ts';

/** One sample of the Prometheus text format. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A tiny reader of the text format: `# TYPE` lines and samples (no escapes in our labels). */
function parseExposition(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type !== null) types.set(type[1] ?? '', type[2] ?? '');
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (m === null) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/([a-zA-Z_]\w*)="([^"]*)"/g))
      labels[k ?? ''] = v ?? '';
    samples.push({ name: m[1] ?? '', labels, value: Number(m[3]) });
  }
  return { types, samples };
}

let world: E2eWorld;
beforeAll(() => {
  world = new E2eWorld({
    start: '2026-11-20T09:20:00+05:30',
    speed: 1,
    anchor: new Date().toISOString(),
  });
});
afterAll(() => world.dispose());

describe('e2e: Prometheus metrics of a running paper bot', { timeout: 90_000 }, () => {
  it('serves /metrics on metrics.port and on the dashboard behind their tokens, with the names, types and labels after a fill', async () => {
    // A paper bot on the embedded simulator, metrics on a free port of their own.
    const config = world.writeConfig({
      mode: 'paper',
      broker: { baseUrl: 'embedded', sim: { start: '2026-11-20T09:20:00+05:30', seed: 11 } },
      marketData: { intervalMs: 1_000, warmupSeconds: 0 },
      strategies: [
        { id: 'flat', module: `${REPO}/test/fixtures/strategies/buy-when-flat.ts` },
        {
          id: 'big',
          module: `${REPO}/test/fixtures/strategies/buy-when-flat.ts`,
          params: { quantity: 20 },
        },
      ],
      risk: { maxOrderQuantity: 15 },
      execution: { trackIntervalMs: 500 },
      state: { dir: world.stateDir },
      metrics: { port: 0, token: 'scrape-secret' },
      dashboard: { port: 0, token: 'dashboard-secret' },
      logging: { level: 'info', format: 'json', summaryIntervalSeconds: 0 },
    });
    const bot = await world.startBot(config);
    const listening = await waitForLog(
      bot,
      (l) => l.msg === 'metrics listening',
      1,
      10_000,
      'metrics',
    );
    const url = String(listening.url);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    await waitForLog(bot, isEvent('OrderFilled', 'flat'), 1, 30_000, 'a fill');

    expect((await fetch(url)).status).toBe(401);
    const res = await fetch(url, { headers: { authorization: 'Bearer scrape-secret' } });
    expect(res.status).toBe(200);
    const { types, samples } = parseExposition(await res.text());
    const expected: Record<string, string> = {
      tiqs_runner_tick_to_request_seconds: 'histogram',
      tiqs_runner_stage_strategy_seconds: 'histogram',
      tiqs_runner_stage_risk_seconds: 'histogram',
      tiqs_runner_stage_journal_seconds: 'histogram',
      tiqs_runner_stage_send_seconds: 'histogram',
      tiqs_runner_broker_request_duration_seconds: 'histogram',
      tiqs_runner_orders_total: 'counter',
      tiqs_runner_risk_denials_total: 'counter',
      tiqs_runner_broker_throttled_total: 'counter',
      tiqs_runner_broker_retries_total: 'counter',
      tiqs_runner_reconnects_total: 'counter',
      tiqs_runner_alerts_dropped_total: 'counter',
      tiqs_runner_pnl_rupees: 'gauge',
      tiqs_runner_position_net_quantity: 'gauge',
      tiqs_runner_kill_switch: 'gauge',
      tiqs_runner_session_paused: 'gauge',
      tiqs_runner_strategy_paused: 'gauge',
      tiqs_runner_quote_staleness_seconds: 'gauge',
      tiqs_runner_request_budget_in_use_ratio: 'gauge',
    };
    for (const [name, type] of Object.entries(expected)) expect(types.get(name), name).toBe(type);
    // Every family of ours, and nothing else of ours.
    expect([...types.keys()].filter((n) => n.startsWith('tiqs_runner_')).sort()).toEqual(
      Object.keys(expected).sort(),
    );
    const one = (name: string, labels: Record<string, string> = {}) =>
      samples.find(
        (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      );
    expect(one('tiqs_runner_orders_total', { status: 'filled' })?.value).toBeGreaterThanOrEqual(1);
    expect(one('tiqs_runner_tick_to_request_seconds_count')?.value).toBeGreaterThanOrEqual(1);
    expect(one('tiqs_runner_stage_send_seconds_count')?.value).toBeGreaterThanOrEqual(1);
    expect(
      one('tiqs_runner_risk_denials_total', { reason: 'max_order_quantity' })?.value,
    ).toBeGreaterThanOrEqual(1);
    // Requests to the (embedded) service: labelled by operation and status, never a URL.
    const requests = samples.filter(
      (s) => s.name === 'tiqs_runner_broker_request_duration_seconds_count',
    );
    expect(
      requests.some((s) => s.labels.endpoint?.startsWith('quotes:') && s.labels.status === '200'),
    ).toBe(true);
    for (const s of requests) {
      expect(Object.keys(s.labels).sort()).toEqual(['endpoint', 'status']);
      expect(s.labels.endpoint).not.toMatch(/[/?]/);
    }
    expect(one('tiqs_runner_pnl_rupees', { strategy: 'flat', kind: 'realised' })).toBeDefined();
    expect(one('tiqs_runner_pnl_rupees', { strategy: 'big', kind: 'unrealised' })).toBeDefined();
    expect(one('tiqs_runner_position_net_quantity', { symbol: 'SBIN-EQ' })?.value).toBe(10);
    expect(one('tiqs_runner_kill_switch')?.value).toBe(0);
    expect(one('tiqs_runner_session_paused')?.value).toBe(0);
    expect(
      one('tiqs_runner_quote_staleness_seconds', { token: '3045', symbol: 'SBIN-EQ' }),
    ).toBeDefined();
    expect(one('tiqs_runner_request_budget_in_use_ratio', { class: 'quote' })).toBeDefined();

    // The dashboard serves the same metrics behind its own token.
    const dashboard = await waitForLog(
      bot,
      (l) => l.msg === 'dashboard listening',
      1,
      10_000,
      'dashboard',
    );
    const onDashboard = `${String(dashboard.url)}/metrics`;
    expect((await fetch(onDashboard)).status).toBe(401);
    const viaDashboard = await fetch(onDashboard, {
      headers: { authorization: 'Bearer dashboard-secret' },
    });
    expect(viaDashboard.status).toBe(200);
    expect(parseExposition(await viaDashboard.text()).types.get('tiqs_runner_orders_total')).toBe(
      'counter',
    );

    bot.signal('SIGTERM');
    expect((await waitForExit(bot, 20_000)).code).toBe(0);
  });
});
