import type { CandleInterval } from '../domain/candle.ts';
import { IST_OFFSET_MS } from '../domain/ist.ts';
import { formatInr } from '../domain/money.ts';
import type { CandleBar } from './candle-chunk-csv.ts';

/** ₹1,00,000 in paise: a median close above it is more likely a paise file read as rupees. */
const LIKELY_PAISE = 10_000_000;
const OPEN_MIN = 9 * 60 + 15;
const CLOSE_MIN = 15 * 60 + 30;

/**
 * What looks wrong in bars that passed the row checks, as warnings for the person
 * importing (the import still writes them): prices off the tick size, a median close
 * over ₹1,00,000 (a paise file without `--units paise`), and intraday bars mostly outside
 * 09:15–15:30 IST (naive UTC times read as IST: the replay would skip them all).
 *
 * @example
 * ```ts
 * for (const w of candleImportWarnings(bars, 5, '1m')) process.stderr.write(`WARNING: ${w}\n`);
 * ```
 */
export function candleImportWarnings(
  bars: readonly CandleBar[],
  tickSize: number,
  interval: CandleInterval,
): string[] {
  const out: string[] = [];
  const offTick = bars.filter((b) =>
    [b.open, b.high, b.low, b.close].some((p) => p % tickSize !== 0),
  );
  const first = offTick[0];
  if (first !== undefined)
    out.push(
      `${offTick.length} bar(s) have prices off the tick size (${tickSize} paise), the first at ${new Date(first.start + IST_OFFSET_MS).toISOString().slice(0, 16)} IST (--tick-size?)`,
    );
  const closes = bars.map((b) => b.close).sort((a, b) => a - b);
  const median = closes[Math.floor(closes.length / 2)] ?? 0;
  if (median > LIKELY_PAISE)
    out.push(`the median close is ${formatInr(median)}: a file in paise? (--units paise)`);
  if (interval !== '1d') {
    const outside = bars.filter((b) => {
      const minute = Math.floor(((b.start + IST_OFFSET_MS) % 86_400_000) / 60_000);
      return minute < OPEN_MIN || minute >= CLOSE_MIN;
    }).length;
    if (outside * 2 > bars.length)
      out.push(
        `${outside} of ${bars.length} bars start outside 09:15–15:30 IST, which a replay skips: naive UTC times? (give them a Z or +00:00 offset)`,
      );
  }
  return out;
}
