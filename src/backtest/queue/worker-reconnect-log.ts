import type { Logger } from 'pino';

/** Fewest milliseconds between two "still reconnecting" lines. */
const DEFAULT_EVERY_MS = 30_000;

/**
 * The queue worker's log of a lost Redis connection, bounded in rate: ioredis retries
 * every couple of seconds and BullMQ reports each failed command, so an outage of an
 * hour must not write thousands of lines. It logs the first loss (warn), then at most one
 * line per `everyMs` with how many failures it saw meanwhile, and one line when the
 * connection is back, with how long it was down.
 *
 * @example
 * ```ts
 * const log = new WorkerReconnectLog(logger);
 * redis.on('error', (err) => log.lost(err));
 * redis.on('ready', () => log.back());
 * ```
 */
export class WorkerReconnectLog {
  private downSince: number | undefined;
  private lastLine = 0;
  private failures = 0;
  private sinceLine = 0;

  /**
   * @param log where the lines go
   * @param now the wall clock (injected in tests)
   * @param everyMs fewest milliseconds between two lines while down
   */
  constructor(
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
    private readonly everyMs = DEFAULT_EVERY_MS,
  ) {}

  /** Whether the connection is down as far as this log knows. */
  get down(): boolean {
    return this.downSince !== undefined;
  }

  /** A connection error or a failed command: logged at once if first, else counted. */
  lost(err: unknown): void {
    const at = this.now();
    const error = err instanceof Error ? err.message : String(err);
    this.failures += 1;
    this.sinceLine += 1;
    if (this.downSince === undefined) {
      this.downSince = at;
      this.lastLine = at;
      this.sinceLine = 0;
      this.log.warn({ error }, 'redis connection lost; reconnecting (jobs running go on)');
      return;
    }
    if (at - this.lastLine < this.everyMs) return;
    this.log.warn(
      { error, failures: this.sinceLine, downSeconds: Math.round((at - this.downSince) / 1000) },
      'redis still unreachable; reconnecting',
    );
    this.lastLine = at;
    this.sinceLine = 0;
  }

  /** The connection is ready again: one line, if it was down. */
  back(): void {
    if (this.downSince === undefined) return;
    const downSeconds = Math.round((this.now() - this.downSince) / 1000);
    this.log.info({ downSeconds, failures: this.failures }, 'redis reconnected');
    this.downSince = undefined;
    this.failures = 0;
    this.sinceLine = 0;
  }
}
