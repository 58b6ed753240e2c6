/** Between two PINGs. */
const EVERY_MS = 2_000;
/** A PING not answered in this long means Redis is not answering. */
const TIMEOUT_MS = 5_000;

/** Options of {@link RedisSilence}. */
export interface RedisSilenceOptions {
  /** Between two PINGs (default 2 s). */
  readonly everyMs?: number;
  /** A PING unanswered this long counts as silence (default 5 s). */
  readonly timeoutMs?: number;
  /** The clock (default `Date.now`); tests pass a fake one. */
  readonly now?: () => number;
}

/**
 * Tracks since when the queue's Redis has not answered: a PING every `everyMs` on its own
 * connection, one at a time. A hung server (SIGSTOPped, a partition with no reset) raises
 * no socket error and every read just waits, so the submitter learns of it only from a
 * PING that is not answered in `timeoutMs`; a refused connection fails the PING at once.
 * Silence is counted from the unanswered PING's start, and ends with the next answer.
 *
 * @example
 * ```ts
 * const silence = new RedisSilence(() => redis.ping());
 * silence.start();
 * if (silence.silentMs() > 0) say('redis not answering');
 * silence.stop();
 * ```
 */
export class RedisSilence {
  readonly #ping: () => Promise<unknown>;
  readonly #everyMs: number;
  readonly #timeoutMs: number;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  /** When the PING under way was sent (undefined: none under way). */
  #sentAt: number | undefined;
  /** When the first PING that failed or still waits was sent; undefined while Redis answers. */
  #since: number | undefined;

  constructor(ping: () => Promise<unknown>, options: RedisSilenceOptions = {}) {
    this.#ping = ping;
    this.#everyMs = options.everyMs ?? EVERY_MS;
    this.#timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Starts the PINGs (the first at once); they never hold the process open. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#beat();
    this.#timer = setInterval(() => this.#beat(), this.#everyMs);
    this.#timer.unref();
  }

  /** Stops the PINGs. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** How long Redis has not answered (0 while it answers, or within the timeout). */
  silentMs(): number {
    const now = this.#now();
    // A PING still waiting past the timeout is silence even before it fails.
    if (this.#sentAt !== undefined && now - this.#sentAt >= this.#timeoutMs)
      this.#since ??= this.#sentAt;
    return this.#since === undefined ? 0 : now - this.#since;
  }

  #beat(): void {
    // One PING at a time: a hung server would pile them up otherwise.
    if (this.#sentAt !== undefined) return;
    const sentAt = this.#now();
    this.#sentAt = sentAt;
    this.#ping().then(
      () => {
        this.#sentAt = undefined;
        this.#since = undefined;
      },
      () => {
        this.#sentAt = undefined;
        this.#since ??= sentAt;
      },
    );
  }
}
