import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { MetricObjectWithValues, MetricValue } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SessionError } from '../../src/api/errors/session-error.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import { parseConfig } from '../../src/config/load-config.ts';
import { MemoryJournal } from '../../src/execution/journal.ts';
import { BotMetrics } from '../../src/ops/metrics/bot-metrics.ts';
import { Kernel } from '../../src/runtime/kernel.ts';
import { startSimulator } from '../../src/sim/index.ts';
import { countedFetch, ioSettled } from '../helpers/execution-harness.ts';
import { kernelOnSim } from '../helpers/kernel-on-sim.ts';

const held = kernelOnSim();

const root = process.cwd();
const configText = (stateDir: string) => `
mode: paper
broker:
  baseUrl: embedded
marketData:
  intervalMs: 1000
strategies:
  - id: flat
    module: ${root}/test/fixtures/strategies/buy-when-flat.ts
  - id: big
    module: ${root}/test/fixtures/strategies/buy-when-flat.ts
    params: { quantity: 20 }
risk: { maxOrderQuantity: 15 }
execution:
  trackIntervalMs: 1000
state:
  dir: ${stateDir}
logging:
  summaryIntervalSeconds: 0
`;

/** A paper kernel over the simulator on one virtual clock, with its metrics. */
async function startBot() {
  const clock = new VirtualClock(Date.parse('2026-11-20T09:20:00+05:30'));
  const sim = await startSimulator({ clock, seed: 11 });
  held.sim = sim;
  const metrics = new BotMetrics();
  const kernel = await Kernel.create({
    config: parseConfig(configText(mkdtempSync(join(tmpdir(), 'tr-metrics-'))), 'c.yaml', {}),
    configFile: join(root, 'config', 'test.yaml'),
    logger: pino({ level: 'silent' }),
    clock,
    endpoint: { baseUrl: sim.url, appId: 'sim-app', token: 'sim-token' },
    fetch: countedFetch,
    journal: new MemoryJournal(),
    observer: metrics.observer,
  });
  held.kernel = kernel;
  metrics.attach(kernel);
  await kernel.start();
  const steps = async (n: number): Promise<void> => {
    for (let i = 0; i < n; i++) {
      clock.advanceBy(1_000);
      await ioSettled();
    }
  };
  return { kernel, metrics, steps };
}

/** Every sample of the registry after a scrape (the gauges read then), by metric name. */
async function scrape(
  metrics: BotMetrics,
): Promise<Map<string, MetricObjectWithValues<MetricValue<string>>>> {
  await metrics.text();
  const all = await metrics.registry.getMetricsAsJSON();
  return new Map(all.map((m) => [m.name, m as MetricObjectWithValues<MetricValue<string>>]));
}

/** The value of the sample of `name` whose labels include `labels` (a histogram's `_count` by `metricName`). */
function sample(
  metrics: Map<string, MetricObjectWithValues<MetricValue<string>>>,
  name: string,
  labels: Record<string, string | number> = {},
  metricName?: string,
): number | undefined {
  const m = metrics.get(name);
  const v = m?.values.find(
    (x) =>
      (metricName === undefined || (x as { metricName?: string }).metricName === metricName) &&
      Object.entries(labels).every(([k, want]) => String(x.labels[k]) === String(want)),
  );
  return v?.value;
}

describe('BotMetrics over a paper kernel', () => {
  it('times a quote to its order by stage, counts fills, denials and requests, and reads the gauges', async () => {
    const { kernel, metrics, steps } = await startBot();
    await steps(10);
    const m = await scrape(metrics);
    const count = (name: string) => sample(m, name, {}, `${name}_count`) ?? 0;
    // The strategy's first order follows a quote: the whole path and each stage are timed.
    expect(count('tiqs_runner_tick_to_request_seconds')).toBeGreaterThanOrEqual(1);
    for (const stage of ['strategy', 'risk', 'journal', 'send'])
      expect(count(`tiqs_runner_stage_${stage}_seconds`)).toBeGreaterThanOrEqual(1);
    // Less than a second of real time from the quote to the request, and more than nothing.
    const sum =
      sample(
        m,
        'tiqs_runner_tick_to_request_seconds',
        {},
        'tiqs_runner_tick_to_request_seconds_sum',
      ) ?? 0;
    expect(sum).toBeGreaterThan(0);
    expect(sum / count('tiqs_runner_tick_to_request_seconds')).toBeLessThan(1);
    expect(sample(m, 'tiqs_runner_orders_total', { status: 'filled' })).toBe(1);
    // "big" asks for 20 with a per-order limit of 15: denied on every quote, by reason.
    expect(
      sample(m, 'tiqs_runner_risk_denials_total', { reason: 'max_order_quantity' }),
    ).toBeGreaterThanOrEqual(5);
    // Quote polls, by operation (the paper venue asks full quotes) and status: one a second.
    const quotes = m
      .get('tiqs_runner_broker_request_duration_seconds')
      ?.values.filter(
        (v) =>
          (v as { metricName?: string }).metricName ===
            'tiqs_runner_broker_request_duration_seconds_count' &&
          String(v.labels.endpoint).startsWith('quotes:') &&
          v.labels.status === '200',
      )
      .reduce((n, v) => n + v.value, 0);
    expect(quotes).toBeGreaterThanOrEqual(9);
    const net = kernel.engine.positions.position('flat', 3045);
    expect(net?.netQuantity).toBe(10);
    expect(sample(m, 'tiqs_runner_position_net_quantity', { symbol: 'SBIN-EQ' })).toBe(10);
    const totals = kernel.engine.positions.totals('flat');
    expect(sample(m, 'tiqs_runner_pnl_rupees', { strategy: 'flat', kind: 'realised' })).toBe(
      totals.realised / 100,
    );
    expect(sample(m, 'tiqs_runner_pnl_rupees', { strategy: 'flat', kind: 'unrealised' })).toBe(
      totals.unrealised / 100,
    );
    expect(sample(m, 'tiqs_runner_pnl_rupees', { strategy: 'big', kind: 'realised' })).toBe(0);
    expect(sample(m, 'tiqs_runner_kill_switch')).toBe(0);
    expect(sample(m, 'tiqs_runner_session_paused')).toBe(0);
    expect(sample(m, 'tiqs_runner_strategy_paused', { strategy: 'flat' })).toBe(0);
    // Quotes arrive every second of market time: never more than a couple of seconds old.
    const stale = sample(m, 'tiqs_runner_quote_staleness_seconds', {
      token: 3045,
      symbol: 'SBIN-EQ',
    });
    expect(stale).toBeGreaterThanOrEqual(0);
    expect(stale).toBeLessThanOrEqual(2);
    const budget = sample(m, 'tiqs_runner_request_budget_in_use_ratio', { class: 'quote' });
    expect(budget).toBeGreaterThan(0);
    expect(budget).toBeLessThanOrEqual(1);

    // The switches show as they flip.
    expect(kernel.engine.tripKillSwitch('tester')).toBe(true);
    kernel.engine.pause(new SessionError('refused', { operation: 'quotes', status: 401 }));
    kernel.controlState.setPaused('flat', true);
    const after = await scrape(metrics);
    expect(sample(after, 'tiqs_runner_kill_switch')).toBe(1);
    expect(sample(after, 'tiqs_runner_session_paused')).toBe(1);
    expect(sample(after, 'tiqs_runner_strategy_paused', { strategy: 'flat' })).toBe(1);
  });

  it('serves every family with its type in the text format', async () => {
    const { metrics, steps } = await startBot();
    await steps(3);
    const text = await metrics.text();
    for (const [name, type] of [
      ['tiqs_runner_tick_to_request_seconds', 'histogram'],
      ['tiqs_runner_broker_request_duration_seconds', 'histogram'],
      ['tiqs_runner_orders_total', 'counter'],
      ['tiqs_runner_risk_denials_total', 'counter'],
      ['tiqs_runner_broker_throttled_total', 'counter'],
      ['tiqs_runner_broker_retries_total', 'counter'],
      ['tiqs_runner_reconnects_total', 'counter'],
      ['tiqs_runner_alerts_dropped_total', 'counter'],
      ['tiqs_runner_pnl_rupees', 'gauge'],
      ['tiqs_runner_kill_switch', 'gauge'],
    ] as const)
      expect(text).toContain(`# TYPE ${name} ${type}\n`);
    expect(metrics.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  });
});
