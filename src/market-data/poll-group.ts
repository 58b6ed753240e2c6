import { from, type ObservableInput, Subscription, take, timeout, timer } from 'rxjs';
import { switchMap } from 'rxjs/operators';
import type { Clock } from '../clock/clock.ts';
import type { PollBatch } from './poll-plan.ts';
import type { RequestBudget } from './request-budget.ts';
import type { GateState } from './session-gate.ts';

/**
 * What a failed request means for the loop: back off and retry, stop everything, or
 * nothing for the loop (`isolated`: the host took the batch's tokens aside to find the
 * one the service rejects, so the loop neither backs off nor counts the cycle failed).
 */
export type FailureVerdict = 'retry' | 'pause' | 'isolated';

/** The bus side of a {@link PollGroup}: plan, fetch, and what to do with answers. */
export interface PollGroupHost {
  /** Batches of the next cycle (may be empty). */
  batches(intervalMs: number): readonly PollBatch[];
  /** Effective (possibly stretched) interval of the group. */
  effectiveIntervalMs(intervalMs: number): number;
  /** Whether polling may run at `now`. */
  gate(now: number): GateState;
  /** Sends one request. */
  fetch(batch: PollBatch, signal: AbortSignal): ObservableInput<readonly unknown[]>;
  /** Called with each answer. */
  onAnswer(
    intervalMs: number,
    batch: PollBatch,
    data: readonly unknown[],
    receivedAt: number,
  ): void;
  /** Called with each failure; `pause` stops the whole bus (the host does so). */
  onFailure(intervalMs: number, batch: PollBatch, error: unknown, failures: number): FailureVerdict;
  /** Called when every request of a cycle has settled. */
  onCycle(intervalMs: number, ok: boolean): void;
  /** Called on every heartbeat while the gate is open, before a cycle may start. */
  onHeartbeat(intervalMs: number, now: number): void;
}

/** Timing settings of a {@link PollGroup}. */
export interface PollGroupOptions {
  readonly intervalMs: number;
  readonly clock: Clock;
  readonly host: PollGroupHost;
  readonly budget: RequestBudget;
  /** Upper bound of the backoff after repeated failures. */
  readonly maxBackoffMs: number;
  /** A request without an answer after this long counts as failed. */
  readonly requestTimeoutMs: number;
  /** When the calendar knows no next session, look again after this long. */
  readonly closedRecheckMs: number;
}

/**
 * The poll loop of one configured interval: a heartbeat every effective interval that
 * starts a cycle (one request per batch, each at a send time granted by the shared
 * budget, which spaces them evenly rather than in a burst) unless one is still running
 * or a backoff is pending. Outside sessions the loop
 * sleeps until the gate opens; every timer runs on the clock's scheduler.
 *
 * @example
 * ```ts
 * const group = new PollGroup({ intervalMs: 1_000, clock, host, budget, maxBackoffMs: 30_000,
 *   requestTimeoutMs: 15_000, closedRecheckMs: 3_600_000 });
 * group.start();
 * ```
 */
export class PollGroup {
  readonly intervalMs: number;
  private timerSub: Subscription | undefined;
  private inflight: Subscription | undefined;
  private failures = 0;
  private retryAt = Number.NEGATIVE_INFINITY;
  private running = false;
  /** A heartbeat found the last cycle still running: start the next one when it ends. */
  private overdue = false;

  constructor(private readonly options: PollGroupOptions) {
    this.intervalMs = options.intervalMs;
  }

  /** Whether the loop is started (it may be asleep outside sessions). */
  get isRunning(): boolean {
    return this.running;
  }

  /**
   * Starts the loop. The first heartbeat is scheduled rather than run at once, so that
   * subscribers arriving in the same turn share the first cycle.
   */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.failures = 0;
    this.retryAt = Number.NEGATIVE_INFINITY;
    this.overdue = false;
    this.arm(0);
  }

  /** Stops the loop and abandons requests in flight. */
  stop(): void {
    this.running = false;
    this.timerSub?.unsubscribe();
    this.timerSub = undefined;
    this.inflight?.unsubscribe();
    this.inflight = undefined;
  }

  private arm(delay: number): void {
    this.timerSub?.unsubscribe();
    this.timerSub = this.options.clock.scheduler.schedule(() => this.beat(), Math.max(0, delay));
  }

  private beat(): void {
    if (!this.running) return;
    const { clock, host } = this.options;
    const now = clock.now();
    const gate = host.gate(now);
    if (!gate.active) {
      this.arm((gate.wakeAt ?? now + this.options.closedRecheckMs) - now);
      return;
    }
    host.onHeartbeat(this.intervalMs, now);
    // The host may have paused everything from inside the heartbeat.
    if (!this.running) return;
    if (this.inflight !== undefined) this.overdue = true;
    else if (now >= this.retryAt) this.cycle(now);
    if (this.running) this.arm(host.effectiveIntervalMs(this.intervalMs));
  }

  private cycle(start: number): void {
    const { clock, host, budget } = this.options;
    const batches = host.batches(this.intervalMs);
    if (batches.length === 0) return;
    const controller = new AbortController();
    // Only a cycle given up on (a time-out, a stop) has requests to abort: aborting one whose
    // every request answered would do nothing but build a DOMException on the tick's path.
    let abandoned = true;
    const inflight = new Subscription(() => {
      if (abandoned) controller.abort();
    });
    this.inflight = inflight;
    let pending = batches.length;
    let failed = 0;
    let answeredAll = 0;
    const settle = (): void => {
      pending -= 1;
      if (pending > 0 || inflight.closed) return;
      this.inflight = undefined;
      abandoned = answeredAll < batches.length;
      inflight.unsubscribe();
      // Only a cycle that failed entirely backs off: one bad batch must not slow the
      // healthy ones, and it is retried next interval within the planned budget anyway.
      if (failed < batches.length) {
        this.failures = 0;
        this.retryAt = Number.NEGATIVE_INFINITY;
      } else {
        this.failures += 1;
        const backoff = Math.min(
          this.options.maxBackoffMs,
          host.effectiveIntervalMs(this.intervalMs) * 2 ** (this.failures - 1),
        );
        this.retryAt = start + backoff;
      }
      host.onCycle(this.intervalMs, failed === 0);
      // A cycle that overran its interval (sends pushed back by a busy budget, or slow
      // answers) is followed at once rather than a whole interval later: the budget
      // still spaces the sends, and no interval's share of it is wasted.
      if (this.overdue && this.running) {
        this.overdue = false;
        const now = clock.now();
        if (now >= this.retryAt && host.gate(now).active) this.cycle(now);
      }
    };
    const fail = (batch: PollBatch, error: unknown): void => {
      const verdict = host.onFailure(this.intervalMs, batch, error, this.failures + 1);
      if (verdict === 'pause') return;
      if (verdict === 'retry') failed += 1;
      settle();
    };
    for (const batch of batches) {
      const at = budget.reserve(start);
      let answered = false;
      inflight.add(
        timer(at - start, clock.scheduler)
          .pipe(
            switchMap(() =>
              from(host.fetch(batch, controller.signal)).pipe(
                take(1),
                timeout({ first: this.options.requestTimeoutMs, scheduler: clock.scheduler }),
              ),
            ),
          )
          .subscribe({
            next: (data) => {
              answered = true;
              host.onAnswer(this.intervalMs, batch, data, clock.now());
            },
            error: (error: unknown) => fail(batch, error),
            complete: () => {
              if (answered) {
                answeredAll += 1;
                settle();
              } else fail(batch, new Error('the source completed without an answer'));
            },
          }),
      );
    }
  }
}
