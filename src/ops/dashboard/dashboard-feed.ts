import {
  asyncScheduler,
  BehaviorSubject,
  map,
  type Observable,
  type SchedulerLike,
  type Subscription,
  shareReplay,
  throttleTime,
} from 'rxjs';
import type { BotControls, BotStatus } from '../../runtime/bot-controls.ts';
import { PnlCurve, type PnlPoint } from './pnl-curve.ts';

/** What the dashboard pushes: the bot's status and the day's PnL curve. */
export interface DashboardSnapshot extends BotStatus {
  pnlCurve: PnlPoint[];
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
 * The snapshots every browser is sent: one at once, then one after each change the
 * controls report (at most every {@link PUSH_MS}, the last change always included).
 * Each snapshot samples the PnL curve, so the curve moves with the marks.
 */
export class DashboardFeed {
  private readonly curve = new PnlCurve();
  private readonly latest: BehaviorSubject<DashboardSnapshot>;
  private readonly subscription: Subscription;
  /**
   * The latest snapshot at once, then each new one, as JSON made once per snapshot however
   * many clients listen; completes on {@link close}.
   */
  readonly json$: Observable<string>;

  constructor(
    private readonly controls: DashboardControls,
    scheduler: SchedulerLike = asyncScheduler,
  ) {
    this.latest = new BehaviorSubject(this.snapshot());
    this.json$ = this.latest.pipe(
      map((s) => JSON.stringify(s)),
      shareReplay({ bufferSize: 1, refCount: true }),
    );
    this.subscription = controls.changes$
      .pipe(throttleTime(PUSH_MS, scheduler, { leading: true, trailing: true }))
      .subscribe(() => this.latest.next(this.snapshot()));
  }

  /** A snapshot now (the API's `GET /api/status`). */
  snapshot(): DashboardSnapshot {
    const status = this.controls.status();
    this.curve.sample(status.at, status.totals.realised + status.totals.unrealised);
    return { ...status, pnlCurve: this.curve.list() };
  }

  /** Ends every push stream. */
  close(): void {
    this.subscription.unsubscribe();
    this.latest.complete();
  }
}
