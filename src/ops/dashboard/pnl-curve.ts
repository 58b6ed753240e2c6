import { istDayNumber } from '../../domain/ist.ts';

/** One point of the intraday PnL curve: market time (epoch s) and total PnL in paise. */
export interface PnlPoint {
  time: number;
  value: number;
}

/** The end of a {@link PnlCurve}, and what tells a follower whether it can just add it. */
export interface PnlTail {
  /** The first point's time (epoch s), undefined while the curve is empty. */
  start: number | undefined;
  count: number;
  /** The last two points, oldest first (fewer while the curve is shorter). */
  last: PnlPoint[];
}

/** Samples closer than this (market ms) replace the previous point. */
const BUCKET_MS = 5_000;
/** The most points kept: a whole session at one point every five seconds. */
const MAX_POINTS = 6_000;

/**
 * The day's total PnL over market time, for the dashboard's chart: one point per
 * five-second bucket (the last sample in it wins), started afresh each IST day.
 */
export class PnlCurve {
  private readonly points: PnlPoint[] = [];
  private day: number | undefined;

  /** Adds the total PnL `value` (paise) at market time `at` (epoch ms). */
  sample(at: number, value: number): void {
    const day = istDayNumber(at);
    if (day !== this.day) {
      this.points.length = 0;
      this.day = day;
    }
    const time = Math.floor(at / BUCKET_MS) * (BUCKET_MS / 1_000);
    const last = this.points.at(-1);
    if (last !== undefined && time <= last.time) {
      last.value = value;
      return;
    }
    this.points.push({ time, value });
    if (this.points.length > MAX_POINTS) this.points.shift();
  }

  /** The points so far, oldest first. */
  list(): PnlPoint[] {
    return this.points.map((p) => ({ ...p }));
  }

  /**
   * Where the curve stands, for a push that sends only its end: its first point's time
   * (it changes when a new day starts the curve afresh, or the oldest point is dropped),
   * how many points it has, and the last two (the one before the newest may have taken
   * later samples since a follower last saw it).
   */
  tail(): PnlTail {
    return {
      start: this.points[0]?.time,
      count: this.points.length,
      last: this.points.slice(-2).map((p) => ({ ...p })),
    };
  }
}
