import type { Logger } from 'pino';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import { LiveClock } from '../clock/live-clock.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import type { LogContext } from '../logging/log-context.ts';
import type { RecordingMeta } from '../recording/recording-meta.ts';
import { demoStart } from '../runtime/embedded-simulator.ts';
import { Kernel } from '../runtime/kernel.ts';
import { SimExchange } from '../sim/sim-exchange.ts';
import { SIM_HOLIDAYS } from '../sim/sim-holidays.ts';
import { simExchangeSource } from './sim-exchange-source.ts';

/** Options of {@link recordSession}. */
export interface RecordSessionOptions {
  config: RunnerConfig;
  configFile: string;
  out: string;
  logger: Logger;
  /** Stop at this instant; default: one minute after the close of the first session. */
  until?: number;
  /** Resolves when a live recording should stop (SIGINT); unused on the simulator. */
  stopSignal?: Promise<void>;
  onProgress?: (done: number, at: number) => void;
  /** The logger's context, bound here to the recording bot: market time and symbols. */
  logContext?: LogContext;
}

/**
 * Records market data into `out` by running the config's bot on paper (no order ever
 * leaves the process) with recording on, so the data is what those strategies poll, plus
 * the config's `recording.instruments`.
 *
 * On `baseUrl: embedded` the simulator runs in process on a virtual clock, so a whole
 * simulated day records in seconds and the same seed gives the same bytes. Against the
 * service it runs in wall time until `until` or the stop signal.
 */
export async function recordSession(options: RecordSessionOptions): Promise<RecordingMeta> {
  const config: RunnerConfig = {
    ...options.config,
    mode: 'paper',
    recording: { ...options.config.recording, enabled: false },
    logging: { ...options.config.logging, summaryIntervalSeconds: 0 },
  };
  const calendar = TradingCalendar.fromHolidays(SIM_HOLIDAYS);
  if (config.broker.baseUrl === 'embedded') {
    const { sim } = config.broker;
    const start = sim.start !== undefined ? Date.parse(sim.start) : demoStart(Date.now(), calendar);
    const clock = new VirtualClock(start);
    const exchange = new SimExchange({ clock, seed: sim.seed });
    const until = options.until ?? (calendar.nextClose(start) ?? start) + 60_000;
    const kernel = await Kernel.create({
      config,
      configFile: options.configFile,
      logger: options.logger,
      clock,
      source: simExchangeSource(exchange),
      recordTo: options.out,
    });
    bindLog(options.logContext, kernel);
    await kernel.start();
    for (let t = start; t < until; ) {
      t = Math.min(until, t + 60_000);
      await clock.advanceToAsync(t);
      options.onProgress?.((t - start) / Math.max(1, until - start), t);
    }
    const recorder = kernel.recorder;
    await kernel.stop('recording finished');
    if (recorder === undefined) throw new Error('kernel did not start a recorder');
    return recorder.close();
  }
  const clock = new LiveClock();
  const kernel = await Kernel.create({
    config,
    configFile: options.configFile,
    logger: options.logger,
    clock,
    recordTo: options.out,
  });
  bindLog(options.logContext, kernel);
  await kernel.start();
  await new Promise<void>((resolve) => {
    const sub =
      options.until === undefined
        ? undefined
        : clock.scheduler.schedule(() => resolve(), options.until - clock.now());
    void options.stopSignal?.then(() => {
      sub?.unsubscribe();
      resolve();
    });
  });
  const recorder = kernel.recorder;
  await kernel.stop('recording finished');
  if (recorder === undefined) throw new Error('kernel did not start a recorder');
  return recorder.close();
}

/** Points log lines at the recording bot: its clock (virtual on the simulator) and symbols. */
function bindLog(context: LogContext | undefined, kernel: Kernel): void {
  if (context === undefined) return;
  context.now = () => kernel.clock.now();
  context.symbolOf = (token) => kernel.instruments.byToken(token)?.symbol;
}
