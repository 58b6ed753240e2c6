import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Quote } from '../api/schemas/quote.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import { RecordWriter } from './record-writer.ts';
import type { RecordingMeta } from './recording-meta.ts';
import { openRecordings } from './recording-set.ts';

/**
 * Writes a copy of a recording with every instant moved by `deltaMs`: records, the span,
 * and the times of the option-chain snapshots (their contents, expiries included, stay
 * as recorded). Streams, so any length copies in little memory. Tests and the benchmark
 * build multi-day data this way from the sample day.
 *
 * @example
 * ```ts
 * // The sample Friday again on Monday, three days later.
 * await shiftRecording('backtests/data/sample-day', 'tmp/days/2', 3 * 86_400_000);
 * ```
 */
export async function shiftRecording(
  fromDir: string,
  toDir: string,
  deltaMs: number,
): Promise<RecordingMeta> {
  const set = await openRecordings(fromDir);
  const meta = set.meta;
  await mkdir(toDir, { recursive: true });
  const writer = new RecordWriter(meta.startMs + deltaMs, join(toDir, 'quotes.bin'));
  try {
    for await (const block of set.blocks()) {
      while (block.next()) {
        const at = block.time + deltaMs;
        if (block.kind === 'greeks') writer.greeks(block.token, block.greeks(), at);
        else writer.quote(block.kind as QuoteMode, shiftExchangeTimes(block.quote(), deltaMs), at);
      }
    }
  } finally {
    writer.close();
  }
  const shifted: RecordingMeta = {
    ...meta,
    quoteFile: 'quotes.bin',
    startMs: meta.startMs + deltaMs,
    endMs: meta.endMs + deltaMs,
    start: new Date(meta.startMs + deltaMs).toISOString(),
    end: new Date(meta.endMs + deltaMs).toISOString(),
    chainSymbols: meta.chainSymbols.map((c) => ({ ...c, at: c.at + deltaMs })),
    chains: meta.chains.map((c) => ({ ...c, at: c.at + deltaMs })),
  };
  await writeFile(join(toDir, 'meta.json'), `${JSON.stringify(shifted, null, 1)}\n`);
  return shifted;
}

/**
 * The quote with its exchange times (`ltt`, `time`: epoch seconds, 0 when unknown) moved
 * too: candles take a trade's time from them, so Monday's copy must not trade on Friday.
 */
function shiftExchangeTimes(quote: Quote, deltaMs: number): Quote {
  const by = Math.round(deltaMs / 1_000);
  const moved: Record<string, unknown> = { ...quote };
  for (const key of ['ltt', 'time'] as const) {
    const t = (quote as Partial<Record<typeof key, number>>)[key];
    if (t !== undefined && t > 0) moved[key] = t + by;
  }
  return moved as Quote;
}
