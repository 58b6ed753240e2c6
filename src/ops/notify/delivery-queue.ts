/** What one attempt to deliver came to. */
export type SendOutcome =
  | { kind: 'sent' }
  /** Worth another try: a 429, a 5xx, a network failure. `afterMs`: the service's own wait. */
  | { kind: 'retry'; reason: string; afterMs?: number }
  /** Never worth another try: a 4xx other than 429. */
  | { kind: 'fail'; reason: string };

/** Counters of one channel (metrics read them: issue 16 §4 "dropped alerts"). */
export interface DeliveryStats {
  /** Waiting now. */
  queued: number;
  sent: number;
  /** Given up after the retries, or refused for good. */
  failed: number;
  /** Pushed out of a full queue, or still queued when the channel closed. */
  dropped: number;
  retries: number;
}

/** Timing of a {@link DeliveryQueue}; `wait` and `now` are injected in tests (virtual time). */
export interface DeliveryOptions<T> {
  /** Most items waiting; a push beyond it drops the oldest. */
  capacity: number;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
  /** Sends one item. Must not throw: an expected failure is an outcome. */
  send(item: T): Promise<SendOutcome>;
  /** How long to hold `item` before sending it now (rate limits); 0 when free. */
  paceMs?(item: T): number;
  /** Told of each failure, its reason already free of secrets. */
  onProblem?(reason: string, final: boolean): void;
  /** Resolves after `ms`, or at once when `signal` aborts. */
  wait?(ms: number, signal: AbortSignal): Promise<void>;
}

/** setTimeout-based, so vitest's fake timers drive it. */
function realWait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * A bounded queue with one worker: items go out one at a time, in order, paced, and
 * retried with doubling backoff (the service's own `retry_after` wins). `push` never
 * waits and never throws, so a caller on the trading path is never slowed: when the
 * queue is full the oldest item is dropped and counted.
 *
 * @example
 * ```ts
 * const q = new DeliveryQueue({ capacity: 100, maxRetries: 3, retryBaseMs: 1000, retryMaxMs: 60000, send });
 * q.push(message);
 * await q.flush(AbortSignal.timeout(2000));
 * q.close();
 * ```
 */
export class DeliveryQueue<T> {
  private readonly items: T[] = [];
  private readonly counts = { sent: 0, failed: 0, dropped: 0, retries: 0 };
  private readonly closing = new AbortController();
  private running: Promise<void> | undefined;
  private readonly idle = new Set<() => void>();
  private readonly wait: (ms: number, signal: AbortSignal) => Promise<void>;

  constructor(private readonly options: DeliveryOptions<T>) {
    this.wait = options.wait ?? realWait;
  }

  /** Queues `item`; false when the channel is closed. Never blocks. */
  push(item: T): boolean {
    if (this.closing.signal.aborted) {
      this.counts.dropped += 1;
      return false;
    }
    if (this.items.length >= this.options.capacity) {
      this.items.shift();
      this.counts.dropped += 1;
    }
    this.items.push(item);
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
      for (const f of this.idle) f();
      this.idle.clear();
    });
    return true;
  }

  /** The channel's counters. */
  stats(): DeliveryStats {
    return { queued: this.items.length, ...this.counts };
  }

  /** Resolves once nothing is queued or in flight, or when `signal` aborts. */
  flush(signal: AbortSignal): Promise<void> {
    if (this.running === undefined || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        signal.removeEventListener('abort', done);
        this.idle.delete(done);
        resolve();
      };
      this.idle.add(done);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /**
   * Rewrites what waits (the head too, even while it is being paced): at a stop, the
   * Telegram channel folds each chat's messages into one so pacing cannot starve the
   * stop alert. `merge` keeps the order of what it is given.
   */
  compact(merge: (items: readonly T[]) => T[]): void {
    const merged = merge(this.items);
    this.items.length = 0;
    this.items.push(...merged);
  }

  /** Stops the worker; what is still queued is dropped and counted. */
  close(): void {
    this.closing.abort();
    this.counts.dropped += this.items.length;
    this.items.length = 0;
  }

  private async drain(): Promise<void> {
    const signal = this.closing.signal;
    while (this.items.length > 0 && !signal.aborted) {
      // Paced while still queued, so `compact` can fold it; then whatever heads the queue
      // goes (compact keeps the head's chat first), without a second wait.
      const pace = this.options.paceMs?.(this.items[0] as T) ?? 0;
      if (pace > 0) await this.wait(pace, signal);
      // Still queued when closed: `close` counts it.
      if (signal.aborted || this.items.length === 0) break;
      // Taken out before it goes: a full queue then drops a waiting item, never this one.
      const item = this.items.shift() as T;
      const done = await this.attempt(item, signal);
      if (done === 'sent') this.counts.sent += 1;
      else if (done === 'failed') this.counts.failed += 1;
      else this.counts.dropped += 1;
    }
  }

  private async attempt(item: T, signal: AbortSignal): Promise<'sent' | 'failed' | 'closed'> {
    const { maxRetries, retryBaseMs, retryMaxMs } = this.options;
    for (let tries = 0; ; tries += 1) {
      const outcome = await this.options.send(item);
      if (outcome.kind === 'sent') return 'sent';
      const final = outcome.kind === 'fail' || tries >= maxRetries;
      this.options.onProblem?.(outcome.reason, final);
      if (final) return 'failed';
      const backoff = Math.min(retryMaxMs, retryBaseMs * 2 ** tries);
      this.counts.retries += 1;
      await this.wait(Math.max(outcome.afterMs ?? 0, backoff), signal);
      if (signal.aborted) return 'closed';
    }
  }
}
