import { z } from 'zod';
import { instrumentsConfigSchema } from './instruments-config-schema.ts';
import { metricsConfigSchema } from './metrics-config-schema.ts';
import { notifyConfigSchema } from './notify-config-schema.ts';
import { isPlainServiceUrl, PLAIN_SERVICE_URL_PROBLEM } from './plain-service-url.ts';

// Every object is strict: an unknown key (a typo such as `dailyMaxLos`) is an error,
// never silently dropped in favour of a default.

const rupees = z
  .union([z.number().nonnegative(), z.string().regex(/^\d+(\.\d{1,2})?$/)])
  .describe('rupees, e.g. 50000 or "50000.50"');

/** The `broker` section: where orders and data go. */
const brokerConfigSchema = z.strictObject({
  /** `embedded` starts the local simulator in-process; otherwise the service URL. */
  baseUrl: z
    .union([
      z.literal('embedded'),
      // The URL is logged (which service a message is about): nothing secret may ride in it.
      z
        .url({ protocol: /^https?$/ })
        .refine(isPlainServiceUrl, { message: PLAIN_SERVICE_URL_PROBLEM }),
    ])
    .default('embedded'),
  appId: z.string().min(1, 'expected a non-empty appId (use ${TIQS_APP_ID})').optional(),
  token: z.string().min(1, 'expected a non-empty token (use ${TIQS_ACCESS_TOKEN})').optional(),
  /** A file holding the access token; re-read when it changes. */
  tokenFile: z.string().min(1).optional(),
  /** Total deadline of one request, body included. */
  timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
  /** Longest wait a `Retry-After` header may impose; larger values are capped. */
  retryAfterMaxMs: z.number().int().min(0).max(600_000).default(30_000),
  /** A placement answered 429 (not accepted) is retried under its tag until this deadline. */
  throttleRetryDeadlineMs: z.number().int().min(0).max(600_000).default(20_000),
  /**
   * Margin of the client-side rate windows for network jitter: at most N requests of a
   * class are admitted in any window of (interval + margin), so arrivals at the service
   * never exceed N in any interval.
   */
  pacingMarginMs: z.number().int().min(0).max(2_000).default(250),
  /** Options of the embedded simulator. */
  sim: z
    .object({
      seed: z.number().int().default(42),
      speed: z.number().positive().max(1_000).default(1),
      start: z.iso.datetime({ offset: true }).optional(),
      /**
       * Wall instant at which market time equals `start` (rehearsals against an external
       * simulator started with the same --start, --speed and --anchor).
       */
      anchor: z.iso.datetime({ offset: true }).optional(),
    })
    .prefault({}),
});

/** The `marketData` section. */
const marketDataConfigSchema = z.strictObject({
  intervalMs: z.number().int().min(100).default(1_000),
  greeksIntervalMs: z.number().int().min(500).default(5_000),
  batchSize: z.number().int().min(1).max(1_000).default(50),
  warmupSeconds: z.number().int().min(0).default(60),
  staleAfterIntervals: z.number().int().min(1).default(3),
  /** Quote request budget. The service allows 10/s; one in reserve absorbs network jitter. */
  requestsPerSecond: z.number().int().positive().max(10).default(9),
  /** Tokens the service rejected are set aside and retried alone this often. */
  rejectedRetrySeconds: z.number().int().min(1).default(300),
});

/** One strategy instance. */
const strategyConfigSchema = z.strictObject({
  /** Instance id: unique, used in logs, tags and the journal. */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]{0,23}$/, 'expected 1-24 of a-z, 0-9 and -'),
  /** Path of the strategy module: absolute, or relative to the config file's folder. */
  module: z.string().min(1),
  enabled: z.boolean().default(true),
  params: z.record(z.string(), z.unknown()).default({}),
});

/** The `risk` section. Money in rupees here, integer paise inside. */
const riskConfigSchema = z.strictObject({
  maxOrderQuantity: z.number().int().positive().default(10_000),
  maxOrderValue: rupees.default(1_000_000),
  maxOpenOrders: z.number().int().positive().default(50),
  maxPositionPerInstrument: z.number().int().positive().default(10_000),
  dailyMaxLoss: rupees.default(50_000),
  flattenOnKill: z.boolean().default(true),
  /** Convert market orders to limit orders this far (percent) beyond the LTP; 0 = off. */
  marketProtectionPercent: z.number().min(0).max(20).default(0),
});

/** The `execution` section. */
const executionConfigSchema = z.strictObject({
  squareOffMinutesBeforeClose: z.number().int().min(0).max(120).default(10),
  /**
   * On SIGINT/SIGTERM: `cancel-entries` cancels working entry orders and keeps positions
   * and their protective stops; `flatten` cancels everything and squares off; `leave`
   * touches nothing.
   */
  onShutdown: z.enum(['cancel-entries', 'flatten', 'leave']).default('cancel-entries'),
  /** The process exits within this long of SIGINT/SIGTERM, whatever the service does. */
  shutdownTimeoutMs: z.number().int().min(1_000).max(600_000).default(30_000),
  trackIntervalMs: z.number().int().min(200).default(1_000),
  /**
   * A square-off's exit (before the close, the kill switch's, an operator's) that the
   * broker refuses is tried again this many times, sized from the position each time.
   */
  exitRetries: z.number().int().min(0).max(20).default(5),
  /** Wait before the first try again; each later wait doubles, up to a minute. */
  exitRetryDelayMs: z.number().int().min(100).max(60_000).default(5_000),
});

/** The `recording` section: record what the bus polls, alongside a live or paper bot. */
const recordingConfigSchema = z.strictObject({
  enabled: z.boolean().default(false),
  /**
   * Each run records into a new folder under this one, named by its start instant.
   * Relative to the config file's folder, like every path in a config.
   */
  dir: z.string().min(1).default('var/recordings'),
  /** gzip the quote file when the bot stops. */
  gzip: z.boolean().default(false),
  /** Instruments kept polled (and so recorded) even when no strategy follows them. */
  instruments: z
    .array(
      z.strictObject({
        token: z.number().int().positive(),
        mode: z.enum(['ltp', 'ohlcv', 'full']).default('full'),
        greeks: z.boolean().default(false),
      }),
    )
    .default([]),
});

/** The `paper` section: the in-process fill model of paper mode and backtests. */
const paperConfigSchema = z.strictObject({
  /** Each order operation reaches the simulated exchange this long after it is sent. */
  latencyMs: z.number().int().min(0).max(60_000).default(0),
  /** Fills see the book this many ticks worse a side (buys pay more, sells get less). */
  slippageTicks: z.number().int().min(0).max(1_000).default(0),
});

/** The whole config file. */
export const runnerConfigSchema = z.strictObject({
  mode: z.enum(['live', 'paper']),
  broker: brokerConfigSchema.prefault({}),
  marketData: marketDataConfigSchema.prefault({}),
  strategies: z.array(strategyConfigSchema).min(1, 'expected at least one strategy'),
  risk: riskConfigSchema.prefault({}),
  execution: executionConfigSchema.prefault({}),
  recording: recordingConfigSchema.prefault({}),
  paper: paperConfigSchema.prefault({}),
  instruments: instrumentsConfigSchema.prefault({}),
  /** Alerts by webhook and Telegram (see docs/operations.md "Alerts"). */
  notify: notifyConfigSchema.prefault({}),
  state: z
    .object({
      dir: z.string().min(1).default('var/state'),
    })
    .prefault({}),
  /**
   * The live dashboard served by the bot (`src/ops/dashboard/`); absent: none. Loopback by
   * default; every request needs the token (an empty one: a random token is made at start
   * and its URL printed once on stderr).
   */
  dashboard: z
    .strictObject({
      enabled: z.boolean().default(true),
      /** 0: any free port (the printed URL names it). */
      port: z.number().int().min(0).max(65_535).default(8780),
      host: z.string().min(1).default('127.0.0.1'),
      token: z.string().default(''),
    })
    .optional(),
  /** Prometheus metrics on a port of their own (docs/operations.md "Metrics"); absent: none. */
  metrics: metricsConfigSchema.optional(),
  logging: z
    .object({
      /** pino level. In a backtest spec, a level written here wins over `backtest.logLevel`. */
      level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
      /**
       * `pretty`: one readable line an event, in market time (IST), ₹ and symbols; `json`:
       * every field, plus `marketTime`; `auto`: pretty when stdout is a terminal.
       */
      format: z.enum(['auto', 'json', 'pretty']).default('auto'),
      summaryIntervalSeconds: z.number().int().min(0).default(30),
    })
    .prefault({}),
});

/** A validated config, defaults filled in. */
export type RunnerConfig = z.infer<typeof runnerConfigSchema>;
/** One strategy instance of a config. */
export type StrategyConfig = z.infer<typeof strategyConfigSchema>;
