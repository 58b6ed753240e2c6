import { TradingCalendar } from '../calendar/trading-calendar.ts';
import type { Clock } from '../clock/clock.ts';
import { LiveClock } from '../clock/live-clock.ts';
import { ScaledClock } from '../clock/scaled-clock.ts';
import type { RunnerConfig } from '../config/config-schema.ts';
import { DAY_MS } from '../domain/ist.ts';
import { type RunningSimulator, startSimulator } from '../sim/http/start-simulator.ts';
import { instrumentMasterTable } from '../sim/market/instrument-master-file.ts';
import { istYear, simHolidaysFor } from '../sim/sim-holidays.ts';

/** The in-process simulator of `baseUrl: embedded`, and the clock the bot shares with it. */
export interface EmbeddedSimulator {
  sim: RunningSimulator;
  /** Market time: scaled from the chosen start; the whole bot runs on it. */
  clock: Clock;
  /**
   * Time of the network: the simulator's rate-limit windows and the client's pacing.
   * The market clock too, so that at speed N both sides count the same seconds.
   */
  networkClock: Clock;
  /**
   * The master `GET /all` would serve now, as records and text: the bot reads it
   * in-process, without the CSV round trip (≈ 30 ms of a cold start in csv-parse).
   */
  instrumentMaster(): { records: string[][]; text: string };
}

/** How long before the open a demo starts, so strategies are subscribed at the bell. */
const DEMO_LEAD_MS = 2 * 60_000;

/**
 * The instant a demo should start at: now if a session is open, else shortly before the
 * open of the latest session that has begun, so `npm start` shows trading at any hour.
 */
export function demoStart(now: number, calendar: TradingCalendar): number {
  if (calendar.isOpen(now)) return now;
  for (let back = 0; back < 15; back++) {
    const day = now - back * DAY_MS;
    const started = calendar.sessions(day).filter((s) => s.start <= now);
    const last = started.at(-1);
    if (last !== undefined) return last.start - DEMO_LEAD_MS;
  }
  return now;
}

/** Starts the embedded simulator for a config. */
export async function startEmbeddedSimulator(
  config: RunnerConfig,
  wall: Clock = new LiveClock(),
): Promise<EmbeddedSimulator> {
  // The wall clock only picks the start; from there the scaled clock runs everything.
  const { sim: options } = config.broker;
  const year = istYear(wall.now());
  const calendar = TradingCalendar.fromHolidays(simHolidaysFor([year - 1, year]));
  const start =
    options.start !== undefined ? Date.parse(options.start) : demoStart(wall.now(), calendar);
  const clock = new ScaledClock(start, options.speed);
  const sim = await startSimulator({
    clock,
    seed: options.seed,
  });
  return {
    sim,
    clock,
    networkClock: clock,
    instrumentMaster: () => instrumentMasterTable(sim.exchange.market.universe),
  };
}
