import type { CandleInterval } from '../domain/candle.ts';

/** One chunk of a download: IST dates, both inclusive. */
export interface CandleChunk {
  readonly from: string;
  readonly to: string;
}

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Day number (UTC-midnight based) of a `YYYY-MM-DD`, or NaN for anything else. */
export function dateDay(date: string): number {
  if (!DATE.test(date)) return Number.NaN;
  const ms = Date.parse(`${date}T00:00:00Z`);
  // Date.parse rolls 2025-02-30 over; a real date formats back to itself.
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date
    ? Number.NaN
    : ms / DAY_MS;
}

/** `YYYY-MM-DD` of a day number from {@link dateDay}. */
export function dayDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Cuts the IST dates `from`..`to` (inclusive) into download chunks: `chunkDays` days each
 * when given, else calendar months for intraday intervals (~8,000 one-minute bars) and
 * calendar years for `1d`; the first and last are cut at `from` and `to`. The names are
 * what a rerun resumes by, so the same arguments always give the same chunks.
 *
 * @example
 * ```ts
 * planCandleChunks('2025-01-15', '2025-03-10', '1m');
 * // [{from:'2025-01-15',to:'2025-01-31'}, {from:'2025-02-01',to:'2025-02-28'}, {from:'2025-03-01',to:'2025-03-10'}]
 * ```
 */
export function planCandleChunks(
  from: string,
  to: string,
  interval: CandleInterval,
  chunkDays?: number,
): CandleChunk[] {
  const first = dateDay(from);
  const last = dateDay(to);
  const out: CandleChunk[] = [];
  for (let day = first; day <= last; ) {
    const end = Math.min(last, chunkEnd(day, interval, chunkDays));
    out.push({ from: dayDate(day), to: dayDate(end) });
    day = end + 1;
  }
  return out;
}

/** Last day of the chunk starting on `day`. */
function chunkEnd(day: number, interval: CandleInterval, chunkDays?: number): number {
  if (chunkDays !== undefined) return day + chunkDays - 1;
  const d = new Date(day * DAY_MS);
  const next =
    interval === '1d'
      ? Date.UTC(d.getUTCFullYear() + 1, 0, 1)
      : Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
  return next / DAY_MS - 1;
}
