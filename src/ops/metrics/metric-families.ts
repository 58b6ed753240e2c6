import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Latency of the path from a quote to an order, in seconds: 50 µs to 1 s. */
const PATH_BUCKETS = [
  0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
];
/** Requests to the service, in seconds: 5 ms to 10 s (the default deadline). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The placement stages, one histogram each. */
type Stage = 'strategy' | 'risk' | 'journal' | 'send';

/** Every metric a bot exports (issue 16 §4); names start with `tiqs_runner_`. */
export interface MetricFamilies {
  tickToRequest: Histogram;
  stages: Readonly<Record<Stage, Histogram>>;
  brokerRequest: Histogram<'endpoint' | 'status'>;
  orders: Counter<'status'>;
  denials: Counter<'reason'>;
  throttled: Counter<'endpoint'>;
  retries: Counter<'endpoint'>;
  reconnects: Counter;
  alertsDropped: Counter<'channel'>;
  pnl: Gauge<'strategy' | 'kind'>;
  position: Gauge<'symbol'>;
  killSwitch: Gauge;
  sessionPaused: Gauge;
  strategyPaused: Gauge<'strategy'>;
  staleness: Gauge<'token' | 'symbol'>;
  budget: Gauge<'class'>;
}

const STAGE_HELP: Record<Stage, string> = {
  strategy: 'From a quote answer being published to its order entering the engine',
  risk: "The engine's guards and the risk gate of one placement",
  journal: "Writing a placement's row to the journal before it is sent",
  send: 'From handing a placement to the broker to its answer (HTTP round trip live, in process on paper)',
};

/**
 * Makes every metric family on `registry`.
 *
 * @example
 * ```ts
 * const families = metricFamilies(new Registry());
 * families.orders.inc({ status: 'filled' });
 * ```
 */
export function metricFamilies(registry: Registry): MetricFamilies {
  const registers = [registry];
  const stage = (name: Stage) =>
    new Histogram({
      name: `tiqs_runner_stage_${name}_seconds`,
      help: STAGE_HELP[name],
      buckets: PATH_BUCKETS,
      registers,
    });
  return {
    tickToRequest: new Histogram({
      name: 'tiqs_runner_tick_to_request_seconds',
      help: 'From a quote answer being published to the order it caused being handed to the broker',
      buckets: PATH_BUCKETS,
      registers,
    }),
    stages: {
      strategy: stage('strategy'),
      risk: stage('risk'),
      journal: stage('journal'),
      send: stage('send'),
    },
    brokerRequest: new Histogram({
      name: 'tiqs_runner_broker_request_duration_seconds',
      help: 'Requests to the service by operation (endpoint) and HTTP status (0: no answer)',
      labelNames: ['endpoint', 'status'],
      buckets: HTTP_BUCKETS,
      registers,
    }),
    orders: new Counter({
      name: 'tiqs_runner_orders_total',
      help: 'Orders by final status (filled, cancelled, rejected)',
      labelNames: ['status'],
      registers,
    }),
    denials: new Counter({
      name: 'tiqs_runner_risk_denials_total',
      help: 'Intents the engine denied, by reason',
      labelNames: ['reason'],
      registers,
    }),
    throttled: new Counter({
      name: 'tiqs_runner_broker_throttled_total',
      help: 'HTTP 429 answers of the service, by operation',
      labelNames: ['endpoint'],
      registers,
    }),
    retries: new Counter({
      name: 'tiqs_runner_broker_retries_total',
      help: 'Requests sent again after a failure or a 429, by operation',
      labelNames: ['endpoint'],
      registers,
    }),
    reconnects: new Counter({
      name: 'tiqs_runner_reconnects_total',
      help: 'Market data recovering to ok after failing, stale or a refused session',
      registers,
    }),
    // Set from the channels' own counts at each scrape (reset, then added).
    alertsDropped: new Counter({
      name: 'tiqs_runner_alerts_dropped_total',
      help: 'Alerts dropped by a channel (queue full, retries spent or stopped), since start',
      labelNames: ['channel'],
      registers,
    }),
    pnl: new Gauge({
      name: 'tiqs_runner_pnl_rupees',
      help: 'PnL per strategy in rupees, realised or unrealised (marked to the last price)',
      labelNames: ['strategy', 'kind'],
      registers,
    }),
    position: new Gauge({
      name: 'tiqs_runner_position_net_quantity',
      help: 'Net position per instrument over every strategy (positive long, negative short)',
      labelNames: ['symbol'],
      registers,
    }),
    killSwitch: new Gauge({
      name: 'tiqs_runner_kill_switch',
      help: '1 when the kill switch has tripped today (only exits go out)',
      registers,
    }),
    sessionPaused: new Gauge({
      name: 'tiqs_runner_session_paused',
      help: '1 while trading is paused on a refused session (waiting for a new token)',
      registers,
    }),
    strategyPaused: new Gauge({
      name: 'tiqs_runner_strategy_paused',
      help: '1 while an operator has paused the strategy (its new entries are dropped)',
      labelNames: ['strategy'],
      registers,
    }),
    staleness: new Gauge({
      name: 'tiqs_runner_quote_staleness_seconds',
      help: 'Market time since the last quote of each subscribed token',
      labelNames: ['token', 'symbol'],
      registers,
    }),
    budget: new Gauge({
      name: 'tiqs_runner_request_budget_in_use_ratio',
      help: "Share of the service's rate limit in use now, by rate class (0 to 1)",
      labelNames: ['class'],
      registers,
    }),
  };
}
