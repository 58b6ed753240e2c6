import { readdir } from 'node:fs/promises';
import type { CandleChunk } from './candle-chunk-plan.ts';
import { CandleRecordingMismatch } from './candle-recording-mismatch.ts';
import { candleTokenDir, parseCandleChunkName } from './candle-recording-paths.ts';

/**
 * Refuses to resume into a folder whose chunk files were cut differently (another
 * `--chunk-days`): their spans would overlap the planned ones and the bars be read twice.
 * Checked before anything is written, so a refused rerun changes nothing.
 *
 * @example
 * ```ts
 * await checkChunkPlan(out, [3045], planCandleChunks(from, to, '1m'));
 * ```
 */
export async function checkChunkPlan(
  dir: string,
  tokens: readonly number[],
  plan: readonly CandleChunk[],
): Promise<void> {
  const planned = new Set(plan.map((c) => `${c.from}_${c.to}`));
  for (const token of tokens) {
    let names: string[];
    try {
      names = await readdir(candleTokenDir(dir, token));
    } catch {
      continue;
    }
    const foreign = names.find((n) => {
      const span = parseCandleChunkName(n);
      return span !== null && !planned.has(`${span.from}_${span.to}`);
    });
    if (foreign !== undefined)
      throw new CandleRecordingMismatch(
        `${dir} holds chunk ${token}/${foreign}, which this download would not write (another --chunk-days?); rerun with the chunking it was made with, or use another --out`,
      );
  }
}
