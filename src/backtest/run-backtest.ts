import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import type { RoutedIntent } from '../domain/intents.ts';
import { createLogger } from '../logging/create-logger.ts';
import type { LogContext, LogSink } from '../logging/log-context.ts';
import { Kernel } from '../runtime/kernel.ts';
import type { PlotPoint } from '../strategy/strategy-context.ts';
import { type BacktestSpec, type ParamOverrides, withParams } from './backtest-spec.ts';
import { CandleRecordingHistory } from './candle-recording-history.ts';
import {
  candleReplayNotes,
  openBacktestData,
  skippedTokens,
} from './candle-replay/open-backtest-data.ts';
import { type CostModel, costModel } from './cost-model.ts';
import { EquitySeries } from './equity-series.ts';
import { type EquityColumns, type EquityPoint, type Summary, summarize } from './metrics.ts';
import { type MissingData, MissingDataCheck } from './missing-data.ts';
import { RecordingCandleHistory } from './recording-candle-history.ts';
import { type Rejection, RejectionLog } from './rejection-log.ts';
import { ReplayMarket } from './replay-market.ts';
import { ReplaySource } from './replay-source.ts';
import { type ReportInputs, ReportInputsCollector } from './report/report-inputs.ts';
import { type RoundTrip, roundTrips } from './round-trips.ts';
import { SubscriptionWatch } from './subscription-watch.ts';
import { type FillRecord, type OrderCost, TradeLedger } from './trade-ledger.ts';

/** An intent as the report lists it: what, for whom, at which virtual instant. */
export type IntentRecord = RoutedIntent & { at: number };

/** Everything a backtest produced. */
export interface BacktestResult extends ReportInputs {
  name: string;
  params: ParamOverrides;
  summary: Summary;
  intents: IntentRecord[];
  fills: FillRecord[];
  orders: OrderCost[];
  trades: RoundTrip[];
  /**
   * The equity curve as points, built from {@link equityCurve} when first read (a long
   * run's curve is tens of thousands of objects: the CLI's report never asks for them).
   */
  equity: EquityPoint[];
  /** The equity curve as columns (a backtest's); the report reads these when present. */
  equityCurve?: EquityColumns;
  /** What strategies plotted (`ctx.plot`), in time order: the report's indicator series. */
  plots: PlotPoint[];
  /** Rejected and denied orders, in time order (counted in `summary.rejected` / `denied`). */
  rejections: Rejection[];
  /** Tokens subscribed that the data does not hold (only with `allowMissing`: else it throws). */
  missingData?: MissingData;
  /** Strategy id → final status (`failed` means its stream threw). */
  strategies: Record<string, string>;
  /** Failed strategy id → what it failed with (the CLI prints it and exits non-zero). */
  failures?: Record<string, string>;
  /** What the data made of the run (an unfinished candle download, bars skipped), for the summary. */
  warnings?: string[];
  costModel: CostModel;
  fillModel: { latencyMs: number; slippageTicks: number };
  /** Wall-clock ms the replay took. */
  elapsedMs: number;
  /** How the replay went: virtual-time steps, records published, timers fired. */
  replay: { steps: number; records: number; timersFired: number };
}

/** Options of {@link runBacktest}. */
export interface RunBacktestOptions {
  /** Strategy params of this run (a sweep point). */
  params?: ParamOverrides;
  /** Called as virtual time advances, with the share done (0..1). */
  onProgress?: (done: number) => void;
  /**
   * Run on when strategies subscribe to tokens the data does not hold (the result's
   * `missingData` says which); by default that throws `MissingDataError`.
   */
  allowMissing?: boolean;
  /** The bot's logger; default one at the spec's level and `logging.format`, to `logSink`. */
  logger?: Logger;
  /** Where the default logger's lines go (default stdout); the CLI's keeps its progress bar whole. */
  logSink?: LogSink;
}

/**
 * Runs a backtest through the one kernel: the spec's strategies, market-data bus,
 * calendar schedules, execution engine, order tracker and paper broker are the objects
 * of live and paper mode; only the clock (virtual) and the market data differ: a
 * {@link ReplayMarket} pushes each recorded quote at its instant (where the bus would
 * poll), and a {@link ReplaySource} answers holidays and option chains. Virtual time
 * moves instant by instant (the next timer or record), with one event-loop turn after
 * each so promise continuations run in between, and no sleeping.
 *
 * @example
 * ```ts
 * const result = await runBacktest(await loadBacktestSpec('backtests/sma-crossover.yaml'));
 * console.log(result.summary.netPnl);
 * ```
 */
export async function runBacktest(
  spec: BacktestSpec,
  options: RunBacktestOptions = {},
): Promise<BacktestResult> {
  const started = performance.now();
  const bt = spec.backtest;
  // Tick recordings, or candles replayed as synthesised quotes (candle-replay/).
  const data = await openBacktestData(resolve(spec.projectDir, bt.data));
  const recording = data.set;
  const from = bt.from === undefined ? recording.meta.startMs : Date.parse(bt.from);
  const to = bt.to === undefined ? recording.meta.endMs : Date.parse(bt.to);
  const clock = new VirtualClock(from);
  const source = new ReplaySource(recording, clock);
  const market = new ReplayMarket(recording, clock);
  // Warm-up candles: read from the recording when a strategy asks (only its token and days).
  const candleHistory =
    data.kind === 'candles'
      ? new CandleRecordingHistory(data.candles.interval, data.candles.series)
      : new RecordingCandleHistory(recording);
  const stateDir = await mkdtemp(join(tmpdir(), 'tiqs-backtest-'));
  const params = options.params ?? {};
  const config: RunnerConfig = {
    ...withParams(spec.config, params),
    state: { dir: stateDir },
    recording: { ...spec.config.recording, enabled: false },
    logging: { ...spec.config.logging, summaryIntervalSeconds: 0 },
  };
  // Lines stamped with the virtual clock's time (simulated, IST) and, pretty, with symbols.
  const logContext: LogContext = { now: () => clock.now() };
  const logger =
    options.logger ??
    createLogger({
      level: bt.logLevel,
      format: spec.config.logging.format,
      context: logContext,
      // JSON's `time` is the replay's too (tools sort by it); the wall time is `wallTime`.
      simulatedTime: true,
      ...(options.logSink === undefined ? {} : { destination: options.logSink }),
    });
  const model = costModel(bt.costs);
  const ledger = new TradeLedger(model);
  const intents: IntentRecord[] = [];
  const plots: PlotPoint[] = [];
  const rejections = new RejectionLog();
  const warnings: string[] = [];
  // Columns while running (flat buffers, not an object a sample); points at the end.
  const curve = new EquitySeries();
  const capital = Math.round(bt.capital * 100);
  const subs: Subscription[] = [];
  // The kernel's view of the market remembers every token subscribed (checked against the data).
  const watch = new SubscriptionWatch(market, clock);
  const kernel = await Kernel.create({
    config,
    configFile: spec.file,
    logger,
    clock,
    source,
    market: watch,
    candleHistory,
    // Over candles, resting orders fill at the price the bar path touched (bar-fill.ts).
    fillModel: data.kind === 'candles' ? 'bar' : 'depth',
  });
  const gaps = new MissingDataCheck(
    recording.parts,
    watch,
    (token) => kernel.instruments.byToken(token)?.symbol,
    options.allowMissing === true,
  );
  // Prices (charts, MAE/MFE, benchmark), effective params and the spec, for the report.
  const inputs = new ReportInputsCollector(spec, kernel, market, data.kind);
  logContext.symbolOf = (token) => kernel.instruments.byToken(token)?.symbol;
  try {
    subs.push(kernel.engine.events$.subscribe((e) => ledger.onEvent(e)));
    subs.push(
      kernel.intents$.subscribe((i) => {
        intents.push(i);
        rejections.onIntent(i);
      }),
    );
    subs.push(kernel.engine.events$.subscribe((e) => rejections.onEvent(e)));
    subs.push(kernel.plots$.subscribe((p) => plots.push(p)));
    let peak = capital;
    // The last sample's values: a `repeat` sample (no step since it) has the same ones.
    let value = capital;
    let exposure = 0;
    const sample = (at: number, repeat = false): void => {
      if (!repeat) {
        inputs.sample();
        const marked = mark(kernel);
        value = capital + (marked.gross - ledger.costs.total);
        exposure = marked.exposure;
        peak = Math.max(peak, value);
      }
      curve.push({
        at,
        equity: value,
        drawdown: Math.max(0, peak - value),
        exposure,
        open: kernel.calendarStore.calendar?.isOpen(at) ?? false,
      });
    };
    await kernel.start();
    // The instruments a recording kept polled are followed here too: the same demand
    // means the same channels, so the paper broker (and the risk checks, through
    // `latest`) have full quotes (depth) when they had them while recording.
    // Every candle token's quotes are followed: the paper venue has a book from the first bar.
    const candleTokens = data.kind === 'candles' ? data.candles.series : [];
    for (const s of candleTokens) subs.push(kernel.bus.quote$(s.token, 'full').subscribe());
    for (const i of config.recording.instruments) {
      subs.push(kernel.bus.quote$(i.token, i.mode).subscribe());
      if (i.greeks) subs.push(kernel.bus.greeks$([i.token]).subscribe());
    }
    inputs.attach();
    // Strategies have subscribed: a token the data lacks stops the run here, not as a quiet zero.
    await gaps.check();
    // A token first subscribed mid-run is checked as it is subscribed: one the data lacks
    // stops the replay at that instant, not after the rest of the window (allowed, it is
    // kept for the summary and the run goes on).
    const stop = new AbortController();
    let lateGap: unknown;
    subs.push(
      watch.added$.subscribe(() => {
        gaps.check().catch((err: unknown) => {
          lateGap ??= err;
          stop.abort();
        });
      }),
    );
    // The equity curve is sampled by the replay between its steps, not by a timer: a
    // night of samples costs no step (nothing changes between steps).
    await market.play(to, {
      sample: { everyMs: bt.equityIntervalSeconds * 1_000, take: sample },
      ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
      signal: stop.signal,
    });
    if (lateGap !== undefined) throw lateGap;
    if (data.kind === 'candles') warnings.push(...candleReplayNotes(data.candles));
    for (const note of warnings) logger.warn(note);
    sample(clock.now());
    // Again for tokens first subscribed mid-run, and for candle tokens none of whose bars replayed.
    await gaps.check(data.kind === 'candles' ? skippedTokens(data.candles) : undefined);
    await stopInVirtualTime(kernel, clock);
  } finally {
    for (const s of subs) s.unsubscribe();
    await kernel.stop('backtest finished');
    await rm(stateDir, { recursive: true, force: true });
  }
  const { gross } = mark(kernel);
  const last = (token: number): number | undefined =>
    kernel.engine.positions.positions().find((p) => p.token === token)?.lastPrice;
  const trades = roundTrips(ledger.fills, (f) => ledger.fillCharges(f), last);
  const orders = ledger.orderCosts();
  const equityCurve = curve.columns();
  let points: EquityPoint[] | undefined;
  const summary = summarize({
    startMs: from,
    endMs: to,
    capital,
    equity: equityCurve,
    trips: trades,
    grossPnl: gross,
    costs: ledger.costs,
    fills: ledger.fills.length,
    orders: orders.length,
    intents: intents.length,
    intervalSeconds: bt.equityIntervalSeconds,
    quoteEvents: market.events,
    rejected: rejections.rejected,
    denied: rejections.denied,
  });
  // A benchmark the data holds no price for would be a silent blank in the report.
  const collected = inputs.finish();
  const benchmark = bt.benchmark;
  if (benchmark !== undefined && !collected.prices.some((p) => p.token === benchmark)) {
    const symbol = kernel.instruments.byToken(benchmark)?.symbol;
    const note = `benchmark ${benchmark}${symbol === undefined ? '' : ` (${symbol})`}: the data holds no price for it in the window, so the report has no benchmark`;
    warnings.push(note);
    logger.warn(note);
  }
  return {
    name: spec.name,
    params,
    summary,
    intents,
    fills: ledger.fills,
    orders,
    trades,
    // Points only for whoever reads them (tests, library users); enumerable like a field.
    get equity(): EquityPoint[] {
      points ??= curve.points();
      return points;
    },
    equityCurve,
    plots,
    rejections: rejections.list,
    ...(gaps.report === undefined ? {} : { missingData: gaps.report }),
    strategies: kernel.strategyStatus(),
    failures: kernel.strategyFailures(),
    warnings,
    costModel: model,
    fillModel: { ...config.paper },
    elapsedMs: Math.round(performance.now() - started),
    replay: { steps: market.steps, records: market.events, timersFired: clock.fired },
    ...collected,
  };
}

/**
 * Stops the kernel after the window. A placement still in flight at the window's end (an
 * intent emitted at that very instant, e.g. on a candle's close) settles on the virtual
 * clock, which nothing moves any more: a stop that has not finished after some event-loop
 * turns gets the clock moved a second at a time (at most ten minutes), or it would wait
 * for ever.
 */
async function stopInVirtualTime(kernel: Kernel, clock: VirtualClock): Promise<void> {
  let done = false;
  const stopping = kernel.stop('backtest finished').finally(() => {
    done = true;
  });
  for (let turn = 0; turn < 50 && !done; turn++) await new Promise((r) => setImmediate(r));
  for (let s = 0; s < 600 && !done; s++) await clock.advanceByAsync(1_000);
  await stopping;
}

/** Marks every position to the bus's last price; gross PnL and gross exposure, paise. */
function mark(kernel: Kernel): { gross: number; exposure: number } {
  const book = kernel.engine.positions;
  let gross = 0;
  let exposure = 0;
  for (const p of book.positions()) {
    const token = p.token;
    const q =
      kernel.bus.latest(token, 'full') ??
      kernel.bus.latest(token, 'ohlcv') ??
      kernel.bus.latest(token, 'ltp');
    if (q !== undefined) book.mark(p.token, q.quote.ltp);
  }
  for (const p of book.positions()) {
    gross += p.realised + p.unrealised;
    exposure += Math.abs(p.netQuantity * p.lastPrice);
  }
  return { gross, exposure };
}
