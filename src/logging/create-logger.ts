import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { toIstIso } from '../domain/ist.ts';
import { withIsoTimes } from './iso-times.ts';
import type { LogContext, LogSink } from './log-context.ts';
import { PrettyLines } from './pretty-lines.ts';

/** Log levels, as pino names them. */
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/**
 * Paths pino censors in every log line. Credentials only ever travel under these names;
 * instrument `token` fields (numbers) stay visible, so bare `token` is not listed.
 */
const REDACT_PATHS = [
  'appId',
  'accessToken',
  'headers.appId',
  'headers.token',
  'headers.appid',
  'credentials.appId',
  'credentials.token',
  'broker.appId',
  'broker.token',
  '*.appId',
  '*.accessToken',
  '*.credentials.appId',
  '*.credentials.token',
  '*.broker.appId',
  '*.broker.token',
  '*.headers.appId',
  '*.headers.token',
];

/** Options of {@link createLogger}. */
export interface CreateLoggerOptions {
  level?: LogLevel;
  /** `pretty` for people, `json` for machines; `auto` picks pretty when the destination is a TTY. */
  format?: 'auto' | 'json' | 'pretty';
  /** Where lines go; default stdout. */
  destination?: LogSink;
  /**
   * The bot's clock and instrument master, bound when the bot exists: each line gets
   * `marketTime` (ISO, IST offset) from the clock, and pretty lines show symbols.
   */
  context?: LogContext;
  /**
   * The context's clock is simulated (a backtest): JSON's `time` is the clock's too, so
   * tools that sort by `time` (jq, lnav) follow the replay, and the wall time the line was
   * written goes under `wallTime`.
   */
  simulatedTime?: boolean;
  /**
   * Removes secret values from each serialised line (JSON or pretty) before it is written:
   * the paths above cover the runner's own fields, this also covers a secret a strategy
   * put in its own error text (review 16b N1).
   */
  scrub?: (text: string) => string;
}

/**
 * The root logger: pino, with credentials redacted; JSON for machines, one readable line
 * per event for people (see {@link PrettyLines}), formatted in-process so that a
 * backtest's lines carry its virtual time. With a `context`, every line carries
 * `marketTime` from the bot's clock (which wins over a field of that name in the call), and
 * each epoch-ms instant field (`at`, `placedAt`, an event's `at`) gets an `…Iso` twin in IST.
 * Make one child per component (`logger.child({ component: 'bus' })`) and per strategy.
 *
 * @example
 * ```ts
 * const log = createLogger({ level: 'info' });
 * log.child({ component: 'execution' }).info({ tag }, 'order placed');
 * ```
 */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const context = options.context;
  const base: LoggerOptions = {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: null,
    ...(context !== undefined && options.simulatedTime === true
      ? { timestamp: simulatedTimestamp(context) }
      : {}),
    ...(context === undefined
      ? {}
      : {
          mixin: () => (context.now === undefined ? {} : { marketTime: toIstIso(context.now()) }),
          // The clock's time wins: one `marketTime`, in IST, whoever logs.
          mixinMergeStrategy: (merge: object, mixin: object) => ({ ...merge, ...mixin }),
          // Epoch-ms instants (`at`, `event.at`) also in ISO IST, beside the numbers.
          formatters: { log: withIsoTimes },
        }),
  };
  const format = options.format ?? 'auto';
  const scrub = options.scrub;
  const raw: LogSink = options.destination ?? process.stdout;
  const out: LogSink =
    scrub === undefined
      ? raw
      : { write: (text) => raw.write(scrub(text)), isTTY: raw.isTTY === true };
  const pretty = format === 'pretty' || (format === 'auto' && out.isTTY === true);
  if (!pretty) {
    if (options.destination !== undefined) return pino(base, sinkStream(out));
    if (scrub === undefined) return pino(base);
    // pino's own stdout destination (synchronous), each line scrubbed first.
    const stdout = pino.destination(1);
    return pino(base, sinkStream({ write: (text) => stdout.write(scrub(text)) }));
  }
  const lines = new PrettyLines({
    level: pino.levels.values[level] ?? Number.POSITIVE_INFINITY,
    ...(context === undefined ? {} : { context }),
  });
  return pino(
    base,
    sinkStream({
      write: (json: string) => {
        const text = lines.format(json);
        if (text !== '') out.write(text);
      },
    }),
  );
}

/** pino's `timestamp` from the context's simulated clock (read at each line), with the wall time beside it. */
function simulatedTimestamp(context: LogContext): () => string {
  return () => {
    const wall = Date.now();
    return context.now === undefined
      ? `,"time":${wall}`
      : `,"time":${context.now()},"wallTime":${wall}`;
  };
}

/** A sink as pino's destination (pino writes one serialised record a call). */
function sinkStream(sink: LogSink): DestinationStream {
  return { write: (msg: string) => void sink.write(msg) };
}
