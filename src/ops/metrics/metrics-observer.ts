import type { Pacer } from '../../api/pacing/pacer.ts';
import type { RuntimeObserver } from '../../runtime/runtime-observer.ts';
import type { MetricFamilies } from './metric-families.ts';

type Observe = (value: number) => void;

/**
 * The bot's {@link RuntimeObserver} over the metric families. Everything on the path
 * from a quote to an order is O(1) and allocation-free: a tick is two number writes, a
 * placement a few `observe` calls on unlabelled histograms. Request children are made
 * once per operation and status and kept.
 *
 * @example
 * ```ts
 * const observer = new MetricsObserver(metricFamilies(registry));
 * await Kernel.create({ ...options, observer });
 * ```
 */
export class MetricsObserver implements RuntimeObserver {
  /** `performance.now()` when the quote answer being published began. */
  private tickAt = 0;
  /** True while the bus publishes an answer: a placement now was caused by it. */
  private inTick = false;
  private readonly requests = new Map<string, Map<number, Observe>>();
  private readonly throttled = new Map<string, () => void>();
  private readonly retriedBy = new Map<string, () => void>();
  /** The service's pacer, once the HTTP venue has made it (none in a backtest). */
  pacer: Pacer | undefined;

  constructor(private readonly families: MetricFamilies) {}

  ticksIn(): void {
    this.tickAt = performance.now();
    this.inTick = true;
  }

  ticksOut(): void {
    this.inTick = false;
  }

  placementSent(enteredAt: number, checkedAt: number, sentAt: number): void {
    const { stages, tickToRequest } = this.families;
    // Orders not caused by a quote (a timer, a square-off, a deferred intent) have no tick.
    if (this.inTick) {
      stages.strategy.observe((enteredAt - this.tickAt) / 1_000);
      tickToRequest.observe((sentAt - this.tickAt) / 1_000);
    }
    stages.risk.observe((checkedAt - enteredAt) / 1_000);
    stages.journal.observe((sentAt - checkedAt) / 1_000);
  }

  placementAnswered(sentAt: number, answeredAt: number): void {
    this.families.stages.send.observe((answeredAt - sentAt) / 1_000);
  }

  answered(operation: string, status: number, seconds: number): void {
    let byStatus = this.requests.get(operation);
    if (byStatus === undefined) {
      byStatus = new Map();
      this.requests.set(operation, byStatus);
    }
    let observe = byStatus.get(status);
    if (observe === undefined) {
      const child = this.families.brokerRequest.labels({
        endpoint: operation,
        status: status === 0 ? 'none' : String(status),
      });
      observe = (v) => child.observe(v);
      byStatus.set(status, observe);
    }
    observe(seconds);
    if (status === 429) this.countBy(this.throttled, this.families.throttled, operation);
  }

  retried(operation: string): void {
    this.countBy(this.retriedBy, this.families.retries, operation);
  }

  pacing(pacer: Pacer): void {
    this.pacer = pacer;
  }

  private countBy(
    cache: Map<string, () => void>,
    counter: MetricFamilies['throttled'],
    endpoint: string,
  ): void {
    let inc = cache.get(endpoint);
    if (inc === undefined) {
      const child = counter.labels({ endpoint });
      inc = () => child.inc();
      cache.set(endpoint, inc);
    }
    inc();
  }
}
