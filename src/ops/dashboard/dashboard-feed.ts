import {
  asyncScheduler,
  concat,
  defer,
  type Observable,
  of,
  type SchedulerLike,
  Subject,
  type Subscription,
  throttleTime,
} from 'rxjs';
import type { BotControls, BotStatus } from '../../runtime/bot-controls.ts';
import { PnlCurve, type PnlPoint, type PnlTail } from './pnl-curve.ts';

/** The bot's status and the day's whole PnL curve: `GET /api/status`, and a push stream's first event. */
export interface DashboardSnapshot extends BotStatus {
  pnlCurve: PnlPoint[];
}

/**
 * Each later push: the bot's status and only the curve's end (its start, count and last
 * two points). A page adds the newest point to the curve it has when it follows on from
 * it (same start, one more point, or the same count with the oldest dropped at the cap),
 * and asks `GET /api/status` for the whole curve otherwise (a new day, or a push it
 * missed).
 */
export interface DashboardUpdate extends BotStatus {
  pnl: PnlTail;
}

/** The part of `BotControls` the dashboard uses (a test hands in a stand-in). */
export type DashboardControls = Pick<
  BotControls,
  | 'status'
  | 'changes$'
  | 'pauseStrategy'
  | 'resumeStrategy'
  | 'squareOff'
  | 'squareOffAll'
  | 'tripKillSwitch'
  | 'brokerPositions'
>;

/** Snapshots go out at most this often (wall ms): fills in a burst make one push. */
const PUSH_MS = 250;

/**
 * The pushes every browser is sent: a whole snapshot at once, then an update after each
 * change the controls report (at most every {@link PUSH_MS}, the last change always
 * included), carrying the PnL curve's end rather than the whole curve (a day's
 * curve is up to 6 000 points, ≈ 180 KB of JSON a push). Each push samples the curve, so
 * it moves with the marks.
 */
export class DashboardFeed {
  private readonly curve = new PnlCurve();
  private readonly updates = new Subject<string>();
  private readonly subscription: Subscription;
  /**
   * A whole snapshot at once, then each update, as JSON (an update's made once however
   * many clients listen); completes on {@link close}.
   */
  readonly json$: Observable<string>;

  constructor(
    private readonly controls: DashboardControls,
    scheduler: SchedulerLike = asyncScheduler,
  ) {
    // The first event and the updates after it are made in one synchronous run: no
    // update falls between a client's snapshot and its subscription.
    this.json$ = defer(() => concat(of(JSON.stringify(this.snapshot())), this.updates));
    // The curve starts when the dashboard does.
    this.sample();
    this.subscription = controls.changes$
      .pipe(throttleTime(PUSH_MS, scheduler, { leading: true, trailing: true }))
      .subscribe(() => {
        if (this.updates.observed) this.updates.next(JSON.stringify(this.update()));
        else this.sample();
      });
  }

  /** A snapshot now, with the whole curve (the API's `GET /api/status`). */
  snapshot(): DashboardSnapshot {
    return { ...this.sample(), pnlCurve: this.curve.list() };
  }

  /** An update now, with the curve's end. */
  private update(): DashboardUpdate {
    return { ...this.sample(), pnl: this.curve.tail() };
  }

  /** Ends every push stream. */
  close(): void {
    this.subscription.unsubscribe();
    this.updates.complete();
  }

  private sample(): BotStatus {
    const status = this.controls.status();
    this.curve.sample(status.at, status.totals.realised + status.totals.unrealised);
    return status;
  }
}
