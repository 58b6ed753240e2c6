import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

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
  /** `pretty` for people, `json` for machines; `auto` picks pretty on a TTY. */
  format?: 'auto' | 'json' | 'pretty';
  /** Where lines go; default stdout. */
  destination?: DestinationStream;
}

/**
 * The root logger: pino JSON, pretty on a terminal, with credentials redacted. Make one
 * child per component (`logger.child({ component: 'bus' })`) and per strategy.
 *
 * @example
 * ```ts
 * const log = createLogger({ level: 'info' });
 * log.child({ component: 'execution' }).info({ tag }, 'order placed');
 * ```
 */
export function createLogger(options: CreateLoggerOptions = {}): Logger {
  const base: LoggerOptions = {
    level: options.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: null,
  };
  const format = options.format ?? 'auto';
  const pretty =
    format === 'pretty' ||
    (format === 'auto' && options.destination === undefined && process.stdout.isTTY === true);
  if (pretty) {
    return pino({
      ...base,
      transport: {
        target: 'pino-pretty',
        options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
      },
    });
  }
  return options.destination === undefined ? pino(base) : pino(base, options.destination);
}
