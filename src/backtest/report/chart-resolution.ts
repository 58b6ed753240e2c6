import { IST_OFFSET_MS, istDayStart } from '../../domain/ist.ts';

/** Buckets start at 09:15 IST, the NSE open, so hourly bars read 09:15, 10:15, … */
const ALIGN_MS = (9 * 60 + 15) * 60_000;
const MIN = 60_000;

/** Bars a chart holds at most: beyond, a 1,250 px chart can no longer show them all. */
const MAX_CHART_BARS = 2_000;

/** The bar a report's charts are drawn at. */
export interface ChartResolution {
  /** `1m`, `5m`, `15m`, `1h` or `1d`. */
  label: '1m' | '5m' | '15m' | '1h' | '1d';
  /** Said on the page: `1-minute`, `hourly`, `daily`… */
  words: string;
  /** Start (epoch ms) of the bar holding `ms`. */
  bucket: (ms: number) => number;
}

const STEPS = [
  { label: '1m', words: '1-minute', minutes: 1 },
  { label: '5m', words: '5-minute', minutes: 5 },
  { label: '15m', words: '15-minute', minutes: 15 },
  { label: '1h', words: 'hourly', minutes: 60 },
] as const;

const DAILY: ChartResolution = {
  label: '1d',
  words: 'daily',
  bucket: (ms) => istDayStart(ms) + ALIGN_MS,
};

const every = (minutes: number) => (ms: number) =>
  ms - ((((ms + IST_OFFSET_MS - ALIGN_MS) % (minutes * MIN)) + minutes * MIN) % (minutes * MIN));

/**
 * The finest bar at which the in-session minutes of a run (`minutes`, sampled times in
 * epoch ms, in order) fit in {@link MAX_CHART_BARS}: 1-minute bars for a session or
 * two, then 5 m, 15 m, 1 h, and daily bars for runs of more than about 280 sessions.
 * A chart drawn finer than it can show opens on its last days only (lightweight-charts
 * keeps a minimum spacing between bars).
 *
 * @example
 * ```ts
 * chartResolution(yearOfMinutes).label; // '1h'
 * ```
 */
export function chartResolution(minutes: readonly number[]): ChartResolution {
  for (const s of STEPS) {
    const bucket = every(s.minutes);
    let n = 0;
    let last = Number.NaN;
    for (const ms of minutes) {
      const b = bucket(ms);
      if (b !== last) {
        n++;
        last = b;
        if (n > MAX_CHART_BARS) break;
      }
    }
    if (n <= MAX_CHART_BARS) return { label: s.label, words: s.words, bucket };
  }
  return DAILY;
}
