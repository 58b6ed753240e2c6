import { type SchedulerAction, type SchedulerLike, Subscription } from 'rxjs';
import type { Clock } from './clock.ts';

interface Task {
  due: number;
  seq: number;
  action: VirtualAction<unknown>;
}

class VirtualAction<T> extends Subscription implements SchedulerAction<T> {
  task: Task | undefined;

  constructor(
    private readonly clock: VirtualClock,
    readonly work: (this: SchedulerAction<T>, state?: T) => void,
    public state: T | undefined,
  ) {
    super(() => clock.cancel(this as VirtualAction<unknown>));
  }

  schedule(state?: T, delay = 0): Subscription {
    if (this.closed) return this;
    this.state = state;
    this.clock.enqueue(this as VirtualAction<unknown>, delay);
    return this;
  }
}

/** Options of {@link VirtualClock}. */
export interface VirtualClockOptions {
  /**
   * When true, time jumps to the next due timer on its own, one event-loop turn after
   * the timer is set. Useful for async code that mixes real I/O with clock waits: every
   * wait completes at once, yet `now()` shows the time that would have passed.
   */
  auto?: boolean;
}

/**
 * Virtual time: an RxJS scheduler and a Clock that move only on `advanceTo`/`advanceBy`
 * (or, with `auto`, by themselves). Timers fire in due order, ties in the order set.
 *
 * @example
 * ```ts
 * const clock = new VirtualClock(Date.parse('2026-11-20T03:45:00Z'));
 * const seen: number[] = [];
 * interval(1_000, clock.scheduler).subscribe((n) => seen.push(n));
 * clock.advanceBy(3_000); // seen = [0, 1, 2]
 * ```
 */
export class VirtualClock implements Clock, SchedulerLike {
  readonly scheduler: SchedulerLike = this;
  private time: number;
  private seq = 0;
  private readonly queue: Task[] = [];
  private readonly auto: boolean;
  private autoPending = false;
  private firedCount = 0;

  constructor(start = 0, options: VirtualClockOptions = {}) {
    this.time = start;
    this.auto = options.auto ?? false;
  }

  now(): number {
    return this.time;
  }

  schedule<T>(
    work: (this: SchedulerAction<T>, state?: T) => void,
    delay = 0,
    state?: T,
  ): Subscription {
    const action = new VirtualAction<T>(this, work, state);
    return action.schedule(state, delay);
  }

  /** Number of timers waiting to fire. */
  get pending(): number {
    return this.queue.length;
  }

  /** Timers fired so far (a re-armed periodic timer counts once per run). */
  get fired(): number {
    return this.firedCount;
  }

  /** Due instant of the next timer, or undefined when none waits. */
  nextDue(): number | undefined {
    return this.queue[0]?.due;
  }

  /** Moves time to `target`, firing every timer due on the way, in order. */
  advanceTo(target: number): void {
    for (;;) {
      const next = this.queue[0];
      if (next === undefined || next.due > target) break;
      this.queue.shift();
      this.firedCount += 1;
      next.action.task = undefined;
      this.time = Math.max(this.time, next.due);
      const { action } = next;
      action.work.call(action, action.state);
    }
    this.time = Math.max(this.time, target);
  }

  /** Moves time forward by `ms`. */
  advanceBy(ms: number): void {
    this.advanceTo(this.time + ms);
  }

  /**
   * Like {@link advanceTo}, but lets promise continuations run between timers, so that
   * async code which sets a new timer after an `await` is followed to `target`.
   */
  async advanceToAsync(target: number): Promise<void> {
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const next = this.queue[0];
      if (next === undefined || next.due > target) break;
      this.advanceTo(next.due);
    }
    this.time = Math.max(this.time, target);
  }

  /** Async form of {@link advanceBy}. */
  advanceByAsync(ms: number): Promise<void> {
    return this.advanceToAsync(this.time + ms);
  }

  /** @internal */
  enqueue(action: VirtualAction<unknown>, delay: number): void {
    this.cancel(action);
    const task: Task = { due: this.time + Math.max(0, delay), seq: this.seq++, action };
    action.task = task;
    const at = this.queue.findIndex((t) => t.due > task.due);
    if (at === -1) this.queue.push(task);
    else this.queue.splice(at, 0, task);
    if (this.auto && !this.autoPending) {
      this.autoPending = true;
      setImmediate(() => this.autoStep());
    }
  }

  /** @internal */
  cancel(action: VirtualAction<unknown>): void {
    const { task } = action;
    if (task === undefined) return;
    const i = this.queue.indexOf(task);
    if (i !== -1) this.queue.splice(i, 1);
    action.task = undefined;
  }

  private autoStep(): void {
    this.autoPending = false;
    const next = this.queue[0];
    if (next === undefined) return;
    this.advanceTo(next.due);
    if (this.queue.length > 0 && !this.autoPending) {
      this.autoPending = true;
      setImmediate(() => this.autoStep());
    }
  }
}
