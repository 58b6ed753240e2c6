import { mkdtempSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { RecordWriter } from '../recording/record-writer.ts';
import type { RecordingMeta } from '../recording/recording-meta.ts';
import { openRecordings } from '../recording/recording-set.ts';
import { ReplayMarket } from './replay-market.ts';

/** Friday 20 November 2026, 09:15 IST. */
const FRI = Date.parse('2026-11-20T09:15:00+05:30');
const COUNT = 12_000;
const STEP = 1_000;

/**
 * One uncompressed quote file (read in 64 KiB chunks into reused buffers): token 1's LTP
 * every second, 240 KB of records, and token 2's only in the first ten seconds.
 */
async function recording(): Promise<string> {
  const dir = join(mkdtempSync(join(tmpdir(), 'tr-replay-catch-up-')), 'fri');
  await mkdir(dir, { recursive: true });
  const w = new RecordWriter(FRI, join(dir, 'quotes.bin'));
  for (let i = 0; i < COUNT; i++) {
    w.quote('ltp', { token: 1, ltp: 1_000 + i, close: 90 }, FRI + i * STEP);
    if (i < 10) w.quote('ltp', { token: 2, ltp: 5_000 + i, close: 90 }, FRI + i * STEP);
  }
  w.close();
  const endMs = FRI + (COUNT - 1) * STEP;
  const meta: RecordingMeta = {
    format: 'tiqs-runner-recording',
    version: 1,
    quoteFile: 'quotes.bin',
    startMs: FRI,
    endMs,
    start: new Date(FRI).toISOString(),
    end: new Date(endMs).toISOString(),
    records: COUNT + 10,
    holidays: { holidays: {}, specialTradingDays: {} },
    chainSymbols: [],
    chains: [],
  };
  await writeFile(join(dir, 'meta.json'), JSON.stringify(meta));
  return dir;
}

describe('ReplayMarket, a window starting late in a streamed file', () => {
  it('first publishes the newest record of each token before it, kept from blocks read long before', async () => {
    const set = await openRecordings(await recording());
    const start = FRI + (COUNT - 5) * STEP;
    const clock = new VirtualClock(start);
    const market = new ReplayMarket(set, clock);
    const got: [number, number, number][] = [];
    market.quote$(1, 'ltp').subscribe((q) => got.push([1, q.receivedAt, q.quote.ltp]));
    market.quote$(2, 'ltp').subscribe((q) => got.push([2, q.receivedAt, q.quote.ltp]));
    await market.play(start + STEP);
    // Token 2's last record is in the file's first block, several blocks (and reuses of
    // their buffers) before the window: it must still be the record written, 5 009.
    expect(got).toEqual([
      [2, start, 5_009],
      [1, start, 1_000 + COUNT - 6],
      [1, start, 1_000 + COUNT - 5],
      [1, start + STEP, 1_000 + COUNT - 4],
    ]);
    market.close();
  });
});
