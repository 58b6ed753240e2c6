import pino from 'pino';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { TiqsClient } from '../../api/tiqs-client.ts';
import type { OrderEvent } from '../../domain/order-events.ts';
import type { HealthEvent } from '../../market-data/health.ts';
import type { Kernel } from '../../runtime/kernel.ts';
import { type RunningSimulator, startSimulator } from '../../sim/index.ts';
import { BotMetrics } from './bot-metrics.ts';
import { metricsRoutes } from './metrics-routes.ts';
import { type RunningMetricsServer, startMetricsServer } from './metrics-server.ts';

let sim: RunningSimulator | undefined;
let server: RunningMetricsServer | undefined;
afterEach(async () => {
  await sim?.close();
  await server?.close();
  sim = undefined;
  server = undefined;
});

/** The value of the metric's sample with exactly `labels` (no refresh of the gauges). */
async function sampleOf(metrics: BotMetrics, name: string, labels: object = {}) {
  const m = (await metrics.registry.getMetricsAsJSON()).find((x) => x.name === name);
  const values = (m as { values: { value: number; labels: object }[] }).values;
  return values.find((v) => JSON.stringify(v.labels) === JSON.stringify(labels))?.value;
}

describe('BotMetrics counters', () => {
  it('counts final order statuses, denials by reason, and market-data recoveries', async () => {
    const metrics = new BotMetrics();
    const events$ = new Subject<OrderEvent>();
    const health$ = new Subject<HealthEvent>();
    metrics.attach({ engine: { events$ }, bus: { health$ } } as unknown as Kernel);
    const base = { strategyId: 's', intentId: 'i', tag: 't', at: 0 };
    events$.next({ ...base, type: 'OrderAccepted' });
    events$.next({ ...base, type: 'OrderRejected', reason: 'no margin' });
    events$.next({ ...base, type: 'OrderCancelled', filledQuantity: 0 });
    events$.next({
      type: 'OrderDenied',
      strategyId: 's',
      intentId: 'i',
      at: 0,
      intent: { kind: 'cancel', id: 'c', target: 'i' },
      reason: 'kill switch: the daily loss limit was reached; only exits are allowed today',
    });
    expect(await sampleOf(metrics, 'tiqs_runner_orders_total', { status: 'rejected' })).toBe(1);
    expect(await sampleOf(metrics, 'tiqs_runner_orders_total', { status: 'cancelled' })).toBe(1);
    expect(
      await sampleOf(metrics, 'tiqs_runner_orders_total', { status: 'filled' }),
    ).toBeUndefined();
    expect(
      await sampleOf(metrics, 'tiqs_runner_risk_denials_total', { reason: 'kill_switch' }),
    ).toBe(1);

    health$.next({ status: 'ok', at: 0 });
    // One token's trouble is not the connection's.
    health$.next({ status: 'stale', at: 1, token: 3045 });
    health$.next({ status: 'ok', at: 2, token: 3045 });
    expect(await sampleOf(metrics, 'tiqs_runner_reconnects_total')).toBe(0);
    health$.next({ status: 'degraded', at: 3 });
    health$.next({ status: 'stale', at: 4 });
    health$.next({ status: 'ok', at: 5 });
    health$.next({ status: 'ok', at: 6 });
    expect(await sampleOf(metrics, 'tiqs_runner_reconnects_total')).toBe(1);
    metrics.close();
    health$.next({ status: 'session-expired', at: 7 });
    health$.next({ status: 'ok', at: 8 });
    expect(await sampleOf(metrics, 'tiqs_runner_reconnects_total')).toBe(1);
  });

  it('reads the alerts each channel dropped at every scrape', async () => {
    const metrics = new BotMetrics();
    let dropped = { webhook: 0, telegram: 2 };
    metrics.countDroppedAlerts(() => dropped);
    expect(await metrics.text()).toContain(
      'tiqs_runner_alerts_dropped_total{channel="telegram"} 2',
    );
    dropped = { webhook: 1, telegram: 5 };
    const text = await metrics.text();
    expect(text).toContain('tiqs_runner_alerts_dropped_total{channel="telegram"} 5');
    expect(text).toContain('tiqs_runner_alerts_dropped_total{channel="webhook"} 1');
  });

  it("hears the client's requests: status and duration of each attempt, a 429 and its retry", async () => {
    sim = await startSimulator({ seed: 3 });
    const metrics = new BotMetrics();
    let first = true;
    const client = new TiqsClient({
      baseUrl: sim.url,
      appId: 'sim-app',
      token: 'sim-token',
      retry: { baseDelayMs: 1, maxDelayMs: 1 },
      observer: metrics.observer,
      // The first answer is a 429 from the service; the retry goes through.
      fetch: async (input, init) => {
        if (!first) return fetch(input, init);
        first = false;
        return new Response('{"status":"error","message":"slow down"}', { status: 429 });
      },
    });
    await client.holidays();
    const text = await metrics.text();
    expect(text).toMatch(
      /tiqs_runner_broker_request_duration_seconds_count\{endpoint="holidays",status="429"\} 1\n/,
    );
    expect(text).toMatch(
      /tiqs_runner_broker_request_duration_seconds_count\{endpoint="holidays",status="200"\} 1\n/,
    );
    expect(text).toContain('tiqs_runner_broker_throttled_total{endpoint="holidays"} 1');
    expect(text).toContain('tiqs_runner_broker_retries_total{endpoint="holidays"} 1');
    // The request budget of the client's pacer (two "other" requests in the window).
    metrics.observer.pacing(client.pacer);
    expect(await metrics.text()).toMatch(
      /tiqs_runner_request_budget_in_use_ratio\{class="other"\} 0\.\d+/,
    );
  });
});

describe('serving /metrics', () => {
  it('answers 401 without the token on metrics.port, and the text format with it', async () => {
    const metrics = new BotMetrics();
    server = await startMetricsServer(
      metrics,
      { port: 0, host: '127.0.0.1', token: 'scrape-secret' },
      pino({ level: 'silent' }),
    );
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    const wrong = await fetch(`${server.url}/metrics`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.status).toBe(401);
    const ok = await fetch(`${server.url}/metrics`, {
      headers: { authorization: 'Bearer scrape-secret' },
    });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await ok.text()).toContain('# TYPE tiqs_runner_kill_switch gauge\n');
  });

  it('adds GET /metrics to another app (the dashboard)', async () => {
    const { Hono } = await import('hono');
    const app = new Hono();
    metricsRoutes(new BotMetrics())(app);
    const res = await app.request('/metrics');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('# TYPE tiqs_runner_orders_total counter\n');
  });
});
