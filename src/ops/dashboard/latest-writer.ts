import { asyncScheduler, type SchedulerLike, type Subscription } from 'rxjs';

/** A write to a client that has not finished after this long (wall ms) cuts the client. */
const STALL_MS = 30_000;

/** What {@link LatestWriter} writes to: one client's stream. */
export interface LatestSink {
  /** Writes one message; resolves once the client took it. */
  write(data: string): Promise<void>;
  /** Cuts the client (its EventSource reconnects by itself). */
  abort(): void;
}

/**
 * Writes snapshots to one client keeping at most one waiting: while a write is in
 * flight, a newer snapshot replaces the waiting one instead of queueing behind it, so a
 * client that stops reading (a laptop asleep behind a tunnel) holds one snapshot, not
 * every snapshot the bot makes. A write still unfinished after `stallMs` cuts the client.
 */
export class LatestWriter {
  private pending: string | undefined;
  private inFlight: Promise<void> | undefined;
  private stallTimer: Subscription | undefined;
  private cut = false;

  constructor(
    private readonly sink: LatestSink,
    private readonly stallMs = STALL_MS,
    private readonly scheduler: SchedulerLike = asyncScheduler,
  ) {}

  /** Snapshots waiting to be written: 0 or 1. */
  get waiting(): number {
    return this.pending === undefined ? 0 : 1;
  }

  /** Whether the client was cut for stalling. */
  get stalled(): boolean {
    return this.cut;
  }

  /** Offers the latest snapshot; it replaces any snapshot still waiting. */
  offer(data: string): void {
    if (this.cut) return;
    this.pending = data;
    if (this.inFlight === undefined) this.inFlight = this.drain();
  }

  /** Resolves once nothing is in flight (or at once after a cut). */
  async idle(): Promise<void> {
    await this.inFlight;
  }

  /** Stops the stall timer (the client went away). */
  close(): void {
    this.stallTimer?.unsubscribe();
    this.pending = undefined;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending !== undefined && !this.cut) {
        const data = this.pending;
        this.pending = undefined;
        this.stallTimer = this.scheduler.schedule(() => this.stall(), this.stallMs);
        try {
          await this.sink.write(data);
        } finally {
          this.stallTimer.unsubscribe();
        }
      }
    } finally {
      this.inFlight = undefined;
    }
  }

  private stall(): void {
    this.cut = true;
    this.pending = undefined;
    this.sink.abort();
  }
}
