import type { Subscription } from 'rxjs';
import type { Clock } from '../../clock/clock.ts';

/** At most `limit` events in any window of `intervalMs`. */
export interface RateWindow {
  limit: number;
  intervalMs: number;
}

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

/**
 * A FIFO queue that admits callers no faster than every one of its sliding windows
 * allows, on the Clock's time. Callers wait instead of failing.
 *
 * @example
 * ```ts
 * const orders = new RateLimiter(clock, [
 *   { limit: 10, intervalMs: 1_000 },
 *   { limit: 200, intervalMs: 60_000 },
 * ]);
 * await orders.acquire(); // resolves when a slot is free
 * ```
 */
export class RateLimiter {
  /** Admission times, oldest first, trimmed to the longest window. */
  private readonly admitted: number[] = [];
  private readonly waiters: Waiter[] = [];
  private timer: Subscription | undefined;
  private readonly horizon: number;
  private readonly maxLimit: number;

  constructor(
    private readonly clock: Clock,
    readonly windows: readonly RateWindow[],
  ) {
    for (const w of windows) {
      if (!(w.limit > 0 && w.intervalMs > 0))
        throw new RangeError(`bad rate window ${w.limit}/${w.intervalMs}ms`);
    }
    this.horizon = Math.max(0, ...windows.map((w) => w.intervalMs));
    this.maxLimit = Math.max(0, ...windows.map((w) => w.limit));
  }

  /** Callers waiting for a slot. */
  get queued(): number {
    return this.waiters.length;
  }

  /** Resolves once the caller may send; rejects if `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.waiters.length === 0 && this.delayUntilFree() === 0) {
      this.admit();
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal, onAbort: undefined };
      if (signal !== undefined) {
        waiter.onAbort = () => {
          const i = this.waiters.indexOf(waiter);
          if (i !== -1) this.waiters.splice(i, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.waiters.push(waiter);
      this.arm();
    });
  }

  /** Share of the fullest window in use now, 0 to 1 (the request budget's gauge). */
  usage(): number {
    const now = this.clock.now();
    this.trim(now);
    let share = 0;
    for (const w of this.windows) {
      share = Math.max(share, this.countSince(now - w.intervalMs) / w.limit);
    }
    return Math.min(1, share);
  }

  /** Milliseconds until one more call would be admitted (0 = now). */
  delayUntilFree(): number {
    const now = this.clock.now();
    this.trim(now);
    let wait = 0;
    for (const w of this.windows) {
      const inWindow = this.countSince(now - w.intervalMs);
      if (inWindow >= w.limit) {
        // The slot frees when the event `limit` places back leaves the window.
        const oldest = this.admitted[this.admitted.length - w.limit] ?? now;
        wait = Math.max(wait, oldest + w.intervalMs - now);
      }
    }
    return wait;
  }

  private admit(): void {
    this.admitted.push(this.clock.now());
  }

  private countSince(since: number): number {
    // Times are sorted; count from the end, bounded by the largest limit.
    let n = 0;
    for (let i = this.admitted.length - 1; i >= 0 && n <= this.maxLimit; i--) {
      if ((this.admitted[i] ?? 0) <= since) break;
      n++;
    }
    return n;
  }

  private trim(now: number): void {
    let drop = 0;
    while (drop < this.admitted.length && (this.admitted[drop] ?? 0) <= now - this.horizon) drop++;
    if (drop > 0) this.admitted.splice(0, drop);
  }

  private arm(): void {
    if (this.timer !== undefined || this.waiters.length === 0) return;
    this.timer = this.clock.scheduler.schedule(() => {
      this.timer = undefined;
      this.drain();
    }, this.delayUntilFree());
  }

  private drain(): void {
    while (this.waiters.length > 0 && this.delayUntilFree() === 0) {
      const waiter = this.waiters.shift();
      if (waiter === undefined) break;
      if (waiter.onAbort !== undefined) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.admit();
      waiter.resolve();
    }
    this.arm();
  }
}
