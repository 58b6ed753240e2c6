import { CANDLE_INTERVAL_MS } from '../domain/candle.ts';
import { istDayNumber } from '../domain/ist.ts';
import type { CandleRecordingMeta } from './candle-recording-meta.ts';
import { candleRows } from './candle-recording-reader.ts';

/** What a candle recording folder holds, counted from its chunk files. */
export interface CandleRecordingSummary {
  /** Bars across all tokens. */
  readonly bars: number;
  /** Bars by token. */
  readonly barsByToken: ReadonlyMap<number, number>;
  /** Earliest bar start and latest bar end (start + interval), epoch ms; 0 when no bars. */
  readonly firstStart: number;
  readonly lastEnd: number;
  /**
   * IST day numbers (`istDayNumber`) on which any token has a bar, each with its first bar
   * start and last bar end (what derived holidays and special sessions are read from).
   */
  readonly days: ReadonlyMap<number, { readonly first: number; readonly lastEnd: number }>;
}

/**
 * Streams every token's chunks once to count bars and find the span and trading days
 * (what `finish` writes to meta, and what an import derives holidays from).
 *
 * @example
 * ```ts
 * const s = await scanCandleRecording(dir, meta);
 * s.bars; // 187500
 * ```
 */
export async function scanCandleRecording(
  dir: string,
  meta: Pick<CandleRecordingMeta, 'instruments' | 'interval'>,
): Promise<CandleRecordingSummary> {
  const barsByToken = new Map<number, number>();
  const days = new Map<number, { first: number; lastEnd: number }>();
  const step = CANDLE_INTERVAL_MS[meta.interval];
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  for (const { token } of meta.instruments) {
    let n = 0;
    for await (const c of candleRows(dir, token)) {
      n += 1;
      if (c.start < first) first = c.start;
      if (c.start > last) last = c.start;
      const day = istDayNumber(c.start);
      const seen = days.get(day);
      if (seen === undefined) days.set(day, { first: c.start, lastEnd: c.start + step });
      else {
        seen.first = Math.min(seen.first, c.start);
        seen.lastEnd = Math.max(seen.lastEnd, c.start + step);
      }
    }
    barsByToken.set(token, n);
  }
  const bars = [...barsByToken.values()].reduce((a, b) => a + b, 0);
  return {
    bars,
    barsByToken,
    firstStart: bars === 0 ? 0 : first,
    lastEnd: bars === 0 ? 0 : last + step,
    days,
  };
}
