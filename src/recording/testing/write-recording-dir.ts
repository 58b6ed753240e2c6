import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { RecordWriter } from '../record-writer.ts';
import type { RecordingMeta } from '../recording-meta.ts';

/** Holidays every test recording carries: Tuesday 24 November 2026 is one. */
const TEST_HOLIDAYS = {
  holidays: { '24-11-2026': 'Prakash Gurpurb Sri Guru Nanak Dev' },
  specialTradingDays: {},
};

/**
 * Writes a recording folder (gzip'd `quotes.bin.gz` and `meta.json`) of token 1's LTP
 * each `stepMs` from `startMs`, `count` times: LTP `firstLtp`, `firstLtp + 1`, …
 *
 * @example
 * ```ts
 * await writeRecordingDir(join(tmp, 'fri'), { startMs: FRI_0915, count: 10, stepMs: 1_000, firstLtp: 100 });
 * ```
 */
export async function writeRecordingDir(
  dir: string,
  opts: { startMs: number; count: number; stepMs: number; firstLtp: number },
): Promise<RecordingMeta> {
  const w = new RecordWriter(opts.startMs);
  for (let i = 0; i < opts.count; i++) {
    w.quote('ltp', { token: 1, ltp: opts.firstLtp + i, close: 90 }, opts.startMs + i * opts.stepMs);
  }
  const endMs = opts.startMs + (opts.count - 1) * opts.stepMs;
  const meta: RecordingMeta = {
    format: 'tiqs-runner-recording',
    version: 1,
    quoteFile: 'quotes.bin.gz',
    startMs: opts.startMs,
    endMs,
    start: new Date(opts.startMs).toISOString(),
    end: new Date(endMs).toISOString(),
    records: opts.count,
    holidays: TEST_HOLIDAYS,
    chainSymbols: [{ at: opts.startMs, symbols: { NIFTY: ['24-NOV-2026'] } }],
    chains: [],
  };
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'quotes.bin.gz'), gzipSync(w.bytes()));
  await writeFile(join(dir, 'meta.json'), JSON.stringify(meta));
  return meta;
}
