import type { Logger } from 'pino';
import type { Credentials } from '../../api/tiqs-client.ts';
import type { CalendarStore } from '../../calendar/calendar-store.ts';
import type { Clock } from '../../clock/clock.ts';
import type { RunnerConfig } from '../../config/config-schema.ts';
import type { Instrument } from '../../domain/intents.ts';
import type { Broker } from '../../execution/broker.ts';
import type { ExecutionObserver } from '../../execution/execution-observer.ts';
import type { Journal } from '../../execution/journal.ts';
import type { CandleHistory } from '../../market-data/candles/candle-history.ts';
import type { MarketFeed } from '../../market-data/market-feed.ts';
import type { MarketSource } from '../../market-data/market-source.ts';
import type { Recorder } from '../../recording/recorder.ts';
import type { RuntimeObserver } from '../runtime-observer.ts';

/** Options of `Kernel.create`: what the caller says; the mode is resolved from them. */
export interface KernelOptions {
  config: RunnerConfig;
  /** Path of the config file; strategy modules resolve against its project folder. */
  configFile: string;
  logger: Logger;
  /** Override of the market clock (tests). Default: the embedded simulator's, or wall time. */
  clock?: Clock;
  /** Override of the base URL and credentials (tests with their own simulator). */
  endpoint?: { baseUrl: string } & Credentials;
  /**
   * Market data and utilities instead of the HTTP client: a replay in backtests. With a
   * source, nothing is fetched over HTTP (no client, no simulator is started) and the
   * mode must be `paper`.
   */
  source?: MarketSource;
  /**
   * Market data pushed instead of polled: a backtest's `ReplayMarket`, which publishes
   * each recorded quote at its instant. Default: a `MarketDataBus` polling the source.
   * It needs a `source` (and so mode `paper`).
   */
  market?: MarketFeed;
  /** Execution's journal; default SQLite in the state folder (in memory with a `source`). */
  journal?: Journal;
  /** Warm-up candles with a `source` (a backtest: the recording before the window). */
  candleHistory?: CandleHistory;
  /** The paper venue's fill model: `bar` for a replay of candles (see `PaperBroker`). */
  fillModel?: 'depth' | 'bar';
  /**
   * Record everything the market-data source answers into this folder (the `record`
   * command); without it, `recording.enabled` in the config picks a folder per run.
   */
  recordTo?: string;
  /** Fetch implementation for the HTTP client (tests count requests in flight). */
  fetch?: typeof fetch;
  /** Metrics: told of requests, quote answers and placement stages (see `RuntimeObserver`). */
  observer?: RuntimeObserver;
}

/** What a mode module is given: the caller's options and where the project lives. */
export interface ModeInput {
  options: KernelOptions;
  /** The config file's folder: relative paths resolve against it. */
  projectDir: string;
  /** A child logger per component. */
  log: (component: string) => Logger;
}

/**
 * The parts of a bot that differ between live, paper and backtest. The kernel wires the
 * rest (strategies, execution, schedules) the same way over them and never asks which
 * mode built them.
 */
export interface ModeParts {
  /** Market time: what strategies, schedules and the engine see. */
  clock: Clock;
  /** Network time: retries and waits on the service (the market clock in a replay). */
  networkClock: Clock;
  /** Market data, holidays and option chains, tapped by the recorder when recording. */
  quoteSource: MarketSource;
  calendarStore: CalendarStore;
  feed: MarketFeed;
  broker: Broker;
  journal: Journal;
  /** Records the source's answers when recording is on (see `src/recording/recorder.ts`). */
  recorder: Recorder | undefined;
  /** Warm-up candles (`candles$` `history`): the service's endpoint, or a recording; none: cold. */
  candleHistory?: CandleHistory;
  /** The state folder, for caches (the instrument master's); none in a backtest. */
  stateDir?: string;
  /**
   * The embedded simulator's instrument master as records (header first) and CSV text,
   * read in-process instead of through `GET /all` and a CSV parse; none otherwise.
   */
  embeddedInstrumentMaster?: () => { records: string[][]; text: string };
  /** Tells the venue an instrument's lot and tick before an order in it (paper fills need them). */
  describe(instrument: Instrument): void;
  /** Hands new credentials to whatever talks to the service (nothing in a replay). */
  setCredentials(credentials: Credentials): void;
  /** Closes what the mode started (the paper venue's feeds, an embedded simulator). */
  close(): Promise<void>;
  /** The engine's placement-stage observer (metrics), when the caller gave one. */
  observer?: ExecutionObserver;
  /**
   * False in a replay: its paper venue squares nothing off at a cut-off, so an intraday
   * position left open stays in the book (results are the fills'). Default true.
   */
  closeIntradayAfterDay?: boolean;
}
