import type { Subscription } from 'rxjs';
import type { Clock } from '../clock/clock.ts';

/** Options of {@link TrackerTicks}. */
export interface TrackerTicksOptions {
  clock: Clock;
  /** Between ticks. */
  intervalMs: number;
  /** One poll of the books; the next tick is counted from when it settles. */
  tick(): Promise<void>;
  /**
   * Where a broker that knows its own changes announces them (see
   * `Broker.onBooksChanged`); returns the unregistering function. Without it, every tick
   * polls.
   */
  watch?: (listener: () => void) => () => void;
  /**
   * Whether the latest poll left nothing to follow up without news from the broker (it
   * read the books, changed nothing, no order waits on a deadline). Asked after each tick.
   */
  settled(): boolean;
}

/**
 * When the order tracker reads the books: on a grid of ticks, `intervalMs` apart, each
 * counted from the end of the previous poll.
 *
 * Over a broker that cannot say when its books change (the service), every tick polls.
 * Over one that can (the in-process paper venue of a backtest), a tick that can see no
 * change is skipped, and no timer is set for it: a change announced at `t` arms the
 * first tick of the same grid after `t`, which is the poll that would have seen it
 * first. That holds because nothing changes the venue's books while the timers of an
 * instant fire: the replay publishes an instant's records after its timers, and a
 * broker operation reaches the venue after an `await`. So the tracker observes every
 * change at the same virtual instant as when it polled every tick, while idle hours
 * (nights, weekends) cost no replay steps. After a poll that was not settled the next
 * tick polls as before.
 *
 * @example
 * ```ts
 * const ticks = new TrackerTicks({ clock, intervalMs: 1_000, tick: () => poll(), settled: () => true });
 * ticks.start();
 * ```
 */
export class TrackerTicks {
  private timer: Subscription | undefined;
  private running = false;
  /** A tick's poll is under way: when it settles, the next tick is decided. */
  private ticking = false;
  /** Where the grid of ticks is counted from: the end of the latest tick's poll. */
  private anchor = 0;
  /** The broker announced a change the books were not read after. */
  private changed = false;
  private unwatch: (() => void) | undefined;

  constructor(private readonly options: TrackerTicksOptions) {}

  /** Ticks from now: the first one `intervalMs` away, always. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.unwatch = this.options.watch?.(() => this.onChange());
    this.anchor = this.options.clock.now();
    this.arm(this.options.intervalMs);
  }

  /** No more ticks (a poll under way is the caller's to await). */
  stop(): void {
    this.running = false;
    this.timer?.unsubscribe();
    this.timer = undefined;
    this.unwatch?.();
    this.unwatch = undefined;
  }

  /** The books are being read now: every change announced so far will be seen. */
  reading(): void {
    this.changed = false;
  }

  /** Whether ticks are skipped while nothing changes (the broker announces changes). */
  get onChanges(): boolean {
    return this.unwatch !== undefined;
  }

  private arm(delay: number): void {
    this.timer = this.options.clock.scheduler.schedule(() => this.fire(), delay);
  }

  private fire(): void {
    this.timer = undefined;
    this.ticking = true;
    void this.options.tick().finally(() => this.next());
  }

  private next(): void {
    this.ticking = false;
    if (!this.running) return;
    this.anchor = this.options.clock.now();
    if (!this.onChanges || this.changed || !this.options.settled()) {
      this.arm(this.options.intervalMs);
    }
  }

  private onChange(): void {
    this.changed = true;
    if (!this.running || this.ticking || this.timer !== undefined) return;
    const now = this.options.clock.now();
    const every = Math.max(1, this.options.intervalMs);
    // The first tick strictly after now: a tick due now has already read the books.
    const due = this.anchor + (Math.floor((now - this.anchor) / every) + 1) * every;
    this.arm(due - now);
  }
}
