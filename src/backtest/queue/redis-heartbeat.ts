/** Between two PINGs. */
const DEFAULT_EVERY_MS = 10_000;
/** A PING not answered in this long counts as a lost connection. */
const DEFAULT_TIMEOUT_MS = 5_000;

/** What the heartbeat needs of a Redis client (ioredis's `ping`). */
export interface Pingable {
  ping(): Promise<unknown>;
}

/** Where the heartbeat reports (WorkerReconnectLog's `lost`/`back`). */
export interface HeartbeatSink {
  lost(err: unknown): void;
  back(): void;
}

/**
 * A PING to the queue's Redis every `everyMs`, bounded by `timeoutMs`, reported to a
 * {@link HeartbeatSink}. A hung Redis (SIGSTOPped, a network partition with no reset)
 * raises no socket error, and a BullMQ worker's blocking read just waits: without this the
 * worker would say nothing for as long as it lasts. A PING that fails or times out is a
 * `lost` (the sink bounds the log rate); one that answers is a `back`. One PING at a time.
 *
 * @example
 * ```ts
 * const beat = new RedisHeartbeat(connection, new WorkerReconnectLog(log));
 * beat.start();
 * // …
 * beat.stop();
 * ```
 */
export class RedisHeartbeat {
  private timer: NodeJS.Timeout | undefined;
  private inFlight = false;

  /**
   * @param redis the client to PING (with an offline queue, a PING waits for a reconnect:
   *   the timeout reports it)
   * @param sink where a lost or answered PING is reported
   * @param everyMs between two PINGs
   * @param timeoutMs longest wait for an answer
   */
  constructor(
    private readonly redis: Pingable,
    private readonly sink: HeartbeatSink,
    private readonly everyMs = DEFAULT_EVERY_MS,
    private readonly timeoutMs = DEFAULT_TIMEOUT_MS,
  ) {}

  /** Starts the PINGs; they never hold the process open. */
  start(): void {
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.beat(), this.everyMs);
    this.timer.unref();
  }

  /** Stops the PINGs (one under way is still reported). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async beat(): Promise<void> {
    if (this.inFlight) return;
    this.inFlight = true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`redis did not answer a PING in ${this.timeoutMs / 1000} s`)),
        this.timeoutMs,
      );
      timer.unref();
    });
    try {
      await Promise.race([this.redis.ping(), timeout]);
      this.sink.back();
    } catch (err) {
      this.sink.lost(err);
    } finally {
      clearTimeout(timer);
      this.inFlight = false;
    }
  }
}
