import { Registry } from 'prom-client';
import { describe, expect, it, vi } from 'vitest';
import { metricFamilies } from './metric-families.ts';
import { MetricsObserver } from './metrics-observer.ts';

async function values(registry: Registry, name: string) {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  return (metric as { values: { value: number; labels: object; metricName?: string }[] }).values;
}

const countOf = async (registry: Registry, name: string) =>
  (await values(registry, name)).find((v) => v.metricName === `${name}_count`)?.value;
const sumOf = async (registry: Registry, name: string) =>
  (await values(registry, name)).find((v) => v.metricName === `${name}_sum`)?.value;

describe('MetricsObserver', () => {
  it('times the stages of a placement caused by a quote from the quote on', async () => {
    const registry = new Registry();
    const observer = new MetricsObserver(metricFamilies(registry));
    // The tick's instant pinned: two real readings a stall apart (a busy CI machine) would
    // not be the same one.
    const tickAt = 1_000;
    const now = vi.spyOn(performance, 'now').mockReturnValue(tickAt);
    observer.ticksIn();
    now.mockRestore();
    // Entered 2 ms after the tick, checked 1 ms later, sent 3 ms after that.
    observer.placementSent(tickAt + 2, tickAt + 3, tickAt + 6);
    observer.ticksOut();
    observer.placementAnswered(tickAt + 6, tickAt + 16);
    expect(await countOf(registry, 'tiqs_runner_tick_to_request_seconds')).toBe(1);
    expect(await sumOf(registry, 'tiqs_runner_tick_to_request_seconds')).toBeCloseTo(0.006, 9);
    expect(await sumOf(registry, 'tiqs_runner_stage_strategy_seconds')).toBeCloseTo(0.002, 9);
    expect(await sumOf(registry, 'tiqs_runner_stage_risk_seconds')).toBeCloseTo(0.001, 6);
    expect(await sumOf(registry, 'tiqs_runner_stage_journal_seconds')).toBeCloseTo(0.003, 6);
    expect(await sumOf(registry, 'tiqs_runner_stage_send_seconds')).toBeCloseTo(0.01, 6);
  });

  it('leaves tick-to-request and the strategy stage alone for an order no quote caused', async () => {
    const registry = new Registry();
    const observer = new MetricsObserver(metricFamilies(registry));
    observer.ticksIn();
    observer.ticksOut();
    // A square-off from a timer, well after the last quote.
    observer.placementSent(1_000, 1_001, 1_002);
    expect(await countOf(registry, 'tiqs_runner_tick_to_request_seconds')).toBe(0);
    expect(await countOf(registry, 'tiqs_runner_stage_strategy_seconds')).toBe(0);
    expect(await countOf(registry, 'tiqs_runner_stage_risk_seconds')).toBe(1);
    expect(await countOf(registry, 'tiqs_runner_stage_journal_seconds')).toBe(1);
  });

  it('counts requests by operation and status, 429 answers and retries', async () => {
    const registry = new Registry();
    const observer = new MetricsObserver(metricFamilies(registry));
    observer.answered('placeOrder', 429, 0.01);
    observer.retried('placeOrder');
    observer.answered('placeOrder', 200, 0.02);
    observer.answered('quotes:ltp', 200, 0.03);
    observer.answered('quotes:ltp', 200, 0.03);
    observer.answered('orderBook', 0, 10);
    const durations = await values(registry, 'tiqs_runner_broker_request_duration_seconds');
    const count = (endpoint: string, status: string) =>
      durations.find(
        (v) =>
          v.metricName === 'tiqs_runner_broker_request_duration_seconds_count' &&
          JSON.stringify(v.labels) === JSON.stringify({ endpoint, status }),
      )?.value;
    expect(count('placeOrder', '429')).toBe(1);
    expect(count('placeOrder', '200')).toBe(1);
    expect(count('quotes:ltp', '200')).toBe(2);
    // No answer at all (a time-out): status "none".
    expect(count('orderBook', 'none')).toBe(1);
    expect(await values(registry, 'tiqs_runner_broker_throttled_total')).toEqual([
      { value: 1, labels: { endpoint: 'placeOrder' } },
    ]);
    expect(await values(registry, 'tiqs_runner_broker_retries_total')).toEqual([
      { value: 1, labels: { endpoint: 'placeOrder' } },
    ]);
  });
});
