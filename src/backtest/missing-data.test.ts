import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CandleRecordingWriter } from '../recording/candle-recording-writer.ts';
import { writeRecordingDir } from '../recording/testing/write-recording-dir.ts';
import {
  dataContents,
  describeMissing,
  findMissing,
  MissingDataCheck,
  MissingDataError,
} from './missing-data.ts';

const FRI_0915 = Date.parse('2026-11-20T09:15:00+05:30');
const OPEN_0102 = Date.parse('2025-01-02T09:15:00+05:30');

describe('dataContents', () => {
  it('finds a tick recording’s tokens by a header scan, or in meta.json when listed there', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'tr-contents-')), 'day');
    await writeRecordingDir(dir, { startMs: FRI_0915, count: 3, stepMs: 1_000, firstLtp: 100 });
    // Old recordings have no `tokens`: the records say token 1.
    expect(await dataContents([{ dir }])).toEqual({
      kind: 'ticks',
      tokens: [{ token: 1 }],
      startMs: FRI_0915,
      endMs: FRI_0915 + 2_000,
      records: 3,
    });
    // Listed in the meta: taken from there (the scan would still say 1: this proves it).
    const meta = JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8'));
    await writeFile(join(dir, 'meta.json'), JSON.stringify({ ...meta, tokens: [7, 9] }));
    expect((await dataContents([{ dir }])).tokens).toEqual([{ token: 7 }, { token: 9 }]);
  });

  it('names a candle recording’s instruments with their symbols', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tr-contents-candles-'));
    const w = await CandleRecordingWriter.open(
      dir,
      {
        interval: '1m',
        from: '2025-01-01',
        to: '2025-01-31',
        instruments: [
          { token: 3045, exchange: 'NSE', symbol: 'SBIN-EQ', tickSize: 5, lotSize: 1 },
          { token: 2885, exchange: 'NSE', symbol: 'RELIANCE-EQ', tickSize: 5, lotSize: 1 },
        ],
        holidays: null,
        source: 'simulator',
      },
      'resume',
    );
    const bar = { start: OPEN_0102, open: 100, high: 110, low: 90, close: 105, volume: 1 };
    await w.writeChunk(3045, '2025-01-01', '2025-01-31', [bar]);
    await w.writeChunk(2885, '2025-01-01', '2025-01-31', [
      bar,
      { ...bar, start: OPEN_0102 + 60_000 },
    ]);
    await w.finish();
    expect(await dataContents([{ dir }])).toEqual({
      kind: 'candles',
      tokens: [
        { token: 2885, symbol: 'RELIANCE-EQ' },
        { token: 3045, symbol: 'SBIN-EQ' },
      ],
      startMs: OPEN_0102,
      endMs: OPEN_0102 + 120_000,
      records: 3,
    });
  });
});

describe('findMissing and MissingDataCheck', () => {
  const contents = {
    kind: 'ticks' as const,
    tokens: [{ token: 3045 }, { token: 2885 }],
    startMs: FRI_0915,
    endMs: FRI_0915 + 60_000,
    records: 10,
  };
  const symbols: Record<number, string> = { 3045: 'SBIN-EQ', 1594: 'INFY-EQ' };
  const symbolOf = (t: number): string | undefined => symbols[t];

  it('lists the subscribed tokens the data lacks, with symbols where known', () => {
    const found = findMissing(
      new Map([
        [11536, FRI_0915 + 5],
        [3045, FRI_0915],
        [1594, FRI_0915],
      ]),
      contents,
      symbolOf,
    );
    expect(found?.missing).toEqual([
      { token: 1594, symbol: 'INFY-EQ', firstSubscribedAt: FRI_0915 },
      { token: 11536, firstSubscribedAt: FRI_0915 + 5 },
    ]);
    expect(found?.contents.tokens).toEqual([{ token: 3045, symbol: 'SBIN-EQ' }, { token: 2885 }]);
    expect(describeMissing(found ?? { missing: [], contents })).toBe(
      'strategies subscribe to 2 token(s) the backtest data does not hold: 1594 (INFY-EQ), 11536\n' +
        'the data (ticks, 2026-11-20 09:15 → 2026-11-20 09:16 IST, 10 records) holds 2 token(s): 3045 (SBIN-EQ), 2885',
    );
    expect(findMissing(new Map([[3045, 0]]), contents, symbolOf)).toBeUndefined();
  });

  it('throws unless allowed; allowed, it keeps the finding', async () => {
    const dir = join(await mkdtemp(join(tmpdir(), 'tr-check-')), 'day');
    await writeRecordingDir(dir, { startMs: FRI_0915, count: 2, stepMs: 1_000, firstLtp: 100 });
    const watched = new Map([[1, 0]]);
    const watch = { tokens: () => watched };
    const strict = new MissingDataCheck([{ dir }], watch, symbolOf, false);
    await strict.check();
    watched.set(1594, FRI_0915);
    await expect(strict.check()).rejects.toBeInstanceOf(MissingDataError);
    const lenient = new MissingDataCheck([{ dir }], watch, symbolOf, true);
    await lenient.check();
    expect(lenient.report?.missing.map((m) => m.token)).toEqual([1594]);
  });
});
