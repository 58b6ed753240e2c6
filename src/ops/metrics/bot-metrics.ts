import { Registry } from 'prom-client';
import type { Subscription } from 'rxjs';
import type { RateClass } from '../../api/pacing/pacer.ts';
import type { Kernel } from '../../runtime/kernel.ts';
import { denialReason } from './denial-reason.ts';
import { type MetricFamilies, metricFamilies } from './metric-families.ts';
import { MetricsObserver } from './metrics-observer.ts';

const RATE_CLASSES: readonly RateClass[] = ['quote', 'order', 'other'];

/** Alerts each channel dropped since start (the notifier's counts). */
export type DroppedAlerts = () => Readonly<Record<string, number>>;

/**
 * A bot's Prometheus metrics (issue 16 §4) on a registry of their own. Give
 * {@link observer} to `Kernel.create` (timings), {@link attach} the kernel once made
 * (order, denial and reconnect counters), then serve {@link text}: the gauges (PnL,
 * positions, kill switch, pauses, staleness, request budget, dropped alerts) are read
 * from the kernel at each scrape, never per tick.
 *
 * @example
 * ```ts
 * const metrics = new BotMetrics();
 * const kernel = await Kernel.create({ ...options, observer: metrics.observer });
 * metrics.attach(kernel);
 * const body = await metrics.text(); // Prometheus text format
 * ```
 */
export class BotMetrics {
  readonly registry = new Registry();
  readonly families: MetricFamilies = metricFamilies(this.registry);
  readonly observer = new MetricsObserver(this.families);
  private kernel: Kernel | undefined;
  private droppedAlerts: DroppedAlerts | undefined;
  private readonly subscriptions: Subscription[] = [];

  /** Content type of {@link text}, for the `Content-Type` header. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Counts `kernel`'s final order statuses, denials and market-data recoveries; reads its state at each scrape. */
  attach(kernel: Kernel): void {
    this.kernel = kernel;
    const { orders, denials, reconnects } = this.families;
    this.subscriptions.push(
      kernel.engine.events$.subscribe((e) => {
        if (e.type === 'OrderFilled') orders.inc({ status: 'filled' });
        else if (e.type === 'OrderCancelled') orders.inc({ status: 'cancelled' });
        else if (e.type === 'OrderRejected') orders.inc({ status: 'rejected' });
        else if (e.type === 'OrderDenied') denials.inc({ reason: denialReason(e.reason) });
      }),
    );
    let failing = false;
    this.subscriptions.push(
      kernel.bus.health$.subscribe((h) => {
        // Bus-wide events only: one token's trouble is not the connection's.
        if (h.token !== undefined) return;
        if (h.status !== 'ok') failing = true;
        else if (failing) {
          failing = false;
          reconnects.inc();
        }
      }),
    );
  }

  /** Reads the alerts each channel dropped (the notifier's counts) at each scrape. */
  countDroppedAlerts(droppedAlerts: DroppedAlerts): void {
    this.droppedAlerts = droppedAlerts;
  }

  /** The metrics in the Prometheus text format, the gauges read now. */
  async text(): Promise<string> {
    this.refresh();
    return this.registry.metrics();
  }

  /** Stops counting (the bot is stopping). */
  close(): void {
    for (const s of this.subscriptions) s.unsubscribe();
    this.subscriptions.length = 0;
  }

  private refresh(): void {
    const f = this.families;
    const pacer = this.observer.pacer;
    f.budget.reset();
    if (pacer !== undefined)
      for (const c of RATE_CLASSES) f.budget.set({ class: c }, pacer.limiters[c].usage());
    const dropped = this.droppedAlerts?.();
    f.alertsDropped.reset();
    if (dropped !== undefined)
      for (const [channel, n] of Object.entries(dropped)) f.alertsDropped.inc({ channel }, n);
    const kernel = this.kernel;
    if (kernel === undefined) return;
    const { engine, bus, clock, instruments, controlState } = kernel;
    f.killSwitch.set(engine.killed ? 1 : 0);
    f.sessionPaused.set(engine.pausedReason === undefined ? 0 : 1);
    f.pnl.reset();
    f.strategyPaused.reset();
    for (const strategy of Object.keys(kernel.strategyStatus())) {
      const { realised, unrealised } = engine.positions.totals(strategy);
      f.pnl.set({ strategy, kind: 'realised' }, realised / 100);
      f.pnl.set({ strategy, kind: 'unrealised' }, unrealised / 100);
      f.strategyPaused.set({ strategy }, controlState.isPaused(strategy) ? 1 : 0);
    }
    const net = new Map<string, number>();
    for (const p of engine.positions.positions())
      net.set(p.symbol, (net.get(p.symbol) ?? 0) + p.netQuantity);
    f.position.reset();
    for (const [symbol, quantity] of net) f.position.set({ symbol }, quantity);
    f.staleness.reset();
    const now = clock.now();
    for (const token of bus.quoteTokenList()) {
      // A token is cached in the modes it is asked in: the freshest of them counts.
      const last = Math.max(
        bus.latest(token, 'ltp')?.receivedAt ?? Number.NEGATIVE_INFINITY,
        bus.latest(token, 'ohlcv')?.receivedAt ?? Number.NEGATIVE_INFINITY,
        bus.latest(token, 'full')?.receivedAt ?? Number.NEGATIVE_INFINITY,
      );
      if (last === Number.NEGATIVE_INFINITY) continue;
      const symbol = instruments.byToken(token)?.symbol ?? '';
      f.staleness.set({ token: String(token), symbol }, Math.max(0, now - last) / 1_000);
    }
  }
}
