/**
 * The benches' floor logic: decode every record of a recording and run the SMA
 * crossover of strategies/sma-crossover.ts by hand (60 s bars of SBIN's LTP, SMA 3 over
 * SMA 8, crossings counted). It takes an opened stream, so a bench can read with the
 * framework's TypeScript sources or with its compiled `dist/`.
 */

import { SMA } from 'trading-signals';
import type { RecordStream } from '../../src/recording/recording-set.ts';

/** SBIN, the token the SMA spec trades. */
const TOKEN = 3045;

/** What the floor saw. */
export interface FloorCount {
  records: number;
  crossings: number;
}

/**
 * Streams every block of `set`, decodes every record (quotes and greeks alike, as the
 * replay does) and counts the SMA 3/8 crossings of SBIN's 60 s bars.
 *
 * @example
 * ```ts
 * const { records, crossings } = await smaCrossoverFloor(await openRecordings(dir));
 * ```
 */
export async function smaCrossoverFloor(set: RecordStream): Promise<FloorCount> {
  const fast = new SMA(3);
  const slow = new SMA(8);
  let records = 0;
  let crossings = 0;
  let bar = -1;
  let last = 0;
  let previous: number | undefined;
  let sink = 0;
  for await (const r of set.blocks()) {
    while (r.next()) {
      records += 1;
      if (r.kind === 'greeks') {
        sink += r.greeks().delta;
        continue;
      }
      const q = r.quote();
      sink += q.ltp;
      if (q.token !== TOKEN) continue;
      const b = Math.floor(r.time / 60_000);
      if (bar !== -1 && b !== bar) {
        const f = fast.update(last, false);
        const s = slow.update(last, false);
        if (f !== null && s !== null && slow.isStable) {
          const diff = f - s;
          if (previous !== undefined && Math.sign(previous) !== Math.sign(diff)) crossings += 1;
          previous = diff;
        }
      }
      bar = b;
      last = q.ltp;
    }
  }
  // Keeps the decoded values observable, so no decode is optimised away.
  if (sink === 42) console.log('');
  return { records, crossings };
}
