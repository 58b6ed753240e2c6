/**
 * Multi-day recordings for the benches, built from the sample day: the sample day
 * (backtests/data/sample-day, Friday 20 November 2026) and copies of it moved back onto
 * the trading days before it (weekends and the recorded holidays skipped: Dussehra,
 * Diwali…), one recording folder per day, which the reader streams as one.
 */

import { join, resolve } from 'node:path';
import { DAY_MS, istParts } from '../../src/domain/ist.ts';
import { openRecordings } from '../../src/recording/recording-set.ts';
import { shiftRecording } from '../../src/recording/shift-recording.ts';

/** The shipped sample day. */
const SAMPLE_DAY = resolve('backtests/data/sample-day');

/** Day shifts (ms, ≤ 0) of the sample day onto the `n` trading days ending with it. */
async function tradingDayShifts(n: number): Promise<number[]> {
  const { meta } = await openRecordings(SAMPLE_DAY);
  const holidays = new Set(Object.keys(meta.holidays?.holidays ?? {}));
  const shifts: number[] = [];
  for (let back = 0; shifts.length < n; back++) {
    const p = istParts(meta.startMs - back * DAY_MS);
    const key = `${String(p.day).padStart(2, '0')}-${String(p.month).padStart(2, '0')}-${p.year}`;
    if (p.weekday === 0 || p.weekday === 6 || holidays.has(key)) continue;
    shifts.push(-back * DAY_MS);
  }
  return shifts;
}

/**
 * Writes a folder `dir` of `days` recordings (`day-00`, `day-01`, …): the sample day and
 * its copies on the `days - 1` trading days before it. Returns `dir`.
 *
 * @example
 * ```ts
 * const many = await writeTradingDays(join(work, 'many'), 30);
 * ```
 */
export async function writeTradingDays(dir: string, days: number): Promise<string> {
  const shifts = await tradingDayShifts(days);
  for (const [i, shift] of shifts.entries()) {
    await shiftRecording(SAMPLE_DAY, join(dir, `day-${String(i).padStart(2, '0')}`), shift);
  }
  return dir;
}
