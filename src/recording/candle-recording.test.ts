import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CandleBar } from './candle-chunk-csv.ts';
import type { CandleInstrument } from './candle-recording-meta.ts';
import { CandleRecordingMismatch } from './candle-recording-mismatch.ts';
import {
  candleRows,
  isCandleRecording,
  readCandleRecordingMeta,
} from './candle-recording-reader.ts';
import { type CandleRecordingInit, CandleRecordingWriter } from './candle-recording-writer.ts';
import { RecordingError } from './recording-error.ts';

const SBIN: CandleInstrument = {
  token: 3045,
  exchange: 'NSE',
  symbol: 'SBIN-EQ',
  tickSize: 5,
  lotSize: 1,
};
const TCS: CandleInstrument = {
  token: 11536,
  exchange: 'NSE',
  symbol: 'TCS-EQ',
  tickSize: 10,
  lotSize: 1,
};
const OPEN_0102 = Date.parse('2025-01-02T09:15:00+05:30');
const OPEN_0203 = Date.parse('2025-02-03T09:15:00+05:30');

const init: CandleRecordingInit = {
  interval: '1m',
  from: '2025-01-01',
  to: '2025-02-28',
  instruments: [SBIN],
  holidays: { holidays: {}, specialTradingDays: {} },
  source: 'simulator',
};

function bars(start: number, n: number, first: number): CandleBar[] {
  return Array.from({ length: n }, (_, i) => ({
    start: start + i * 60_000,
    open: first + i,
    high: first + i + 10,
    low: first + i - 10,
    close: first + i + 5,
    volume: 100 * i,
    ...(i === 1 ? { oi: 7 } : {}),
  }));
}

async function all(dir: string, token: number) {
  const out = [];
  for await (const c of candleRows(dir, token)) out.push(c);
  return out;
}

let dir: string;
beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), 'candle-rec-')), 'rec');
});

describe('candle recording writer and reader', () => {
  it('round-trips bars across chunks in date order, as domain candles', async () => {
    const w = await CandleRecordingWriter.open(dir, init, 'resume');
    // Written out of order: the reader orders chunks by name (their dates).
    expect(await w.writeChunk(3045, '2025-02-01', '2025-02-28', bars(OPEN_0203, 2, 900))).toBe(2);
    expect(await w.writeChunk(3045, '2025-01-01', '2025-01-31', bars(OPEN_0102, 3, 800))).toBe(3);
    const got = await all(dir, 3045);
    expect(got.map((c) => c.start)).toEqual([
      OPEN_0102,
      OPEN_0102 + 60_000,
      OPEN_0102 + 120_000,
      OPEN_0203,
      OPEN_0203 + 60_000,
    ]);
    expect(got[1]).toEqual({
      token: 3045,
      interval: '1m',
      start: OPEN_0102 + 60_000,
      end: OPEN_0102 + 120_000,
      open: 801,
      high: 811,
      low: 791,
      close: 806,
      volume: 100,
      oi: 7,
      historical: false,
    });
    expect(got[0]).not.toHaveProperty('oi');
    const text = await readFile(join(dir, 'candles/3045/2025-01-01_2025-01-31.csv'), 'utf8');
    expect(text.split('\n').slice(0, 2)).toEqual([
      'time,open,high,low,close,volume,oi',
      '2025-01-02T09:15:00+05:30,800,810,790,805,0,',
    ]);
  });

  it('marks meta incomplete until finish, then sets span and bar count', async () => {
    const w = await CandleRecordingWriter.open(dir, init, 'resume');
    let { meta } = await readCandleRecordingMeta(dir);
    expect(meta).toMatchObject({
      complete: false,
      bars: 0,
      start: '2025-01-01T00:00:00.000+05:30',
    });
    await w.writeChunk(3045, '2025-01-01', '2025-01-31', bars(OPEN_0102, 3, 800));
    await w.writeChunk(3045, '2025-02-01', '2025-02-28', []);
    await w.finish({ note: 'test' });
    ({ meta } = await readCandleRecordingMeta(dir));
    expect(meta).toMatchObject({
      complete: true,
      bars: 3,
      startMs: OPEN_0102,
      endMs: OPEN_0102 + 180_000,
      end: '2025-01-02T09:18:00.000+05:30',
      note: 'test',
    });
    expect(await isCandleRecording(dir)).toBe(true);
  });

  it('resumes: chunks present are kept and reported, a .tmp leftover is not a chunk', async () => {
    const w = await CandleRecordingWriter.open(dir, init, 'resume');
    await w.writeChunk(3045, '2025-01-01', '2025-01-31', bars(OPEN_0102, 3, 800));
    await writeFile(join(dir, 'candles/3045/2025-02-01_2025-02-28.csv.tmp'), 'garbage');
    const again = await CandleRecordingWriter.open(dir, init, 'resume');
    expect(await again.hasChunk(3045, '2025-01-01', '2025-01-31')).toBe(true);
    expect(await again.hasChunk(3045, '2025-02-01', '2025-02-28')).toBe(false);
    expect(await all(dir, 3045)).toHaveLength(3);
  });

  it('refuses a rerun with another interval, other tokens or another range', async () => {
    await CandleRecordingWriter.open(dir, init, 'resume');
    await expect(
      CandleRecordingWriter.open(dir, { ...init, interval: '5m' }, 'resume'),
    ).rejects.toThrow(/already holds interval 1m, not 5m/);
    await expect(
      CandleRecordingWriter.open(dir, { ...init, instruments: [SBIN, TCS] }, 'resume'),
    ).rejects.toThrow(CandleRecordingMismatch);
    await expect(
      CandleRecordingWriter.open(dir, { ...init, to: '2025-03-31' }, 'resume'),
    ).rejects.toThrow(/range 2025-01-01..2025-02-28/);
  });

  it('extends with another token, widening the range, but not with another interval', async () => {
    // A finished folder (an unfinished download is refused: import-candles.test.ts).
    await (await CandleRecordingWriter.open(dir, init, 'extend')).finish();
    const w = await CandleRecordingWriter.open(
      dir,
      { ...init, instruments: [TCS], from: '2024-12-01', to: '2025-01-31' },
      'extend',
    );
    expect(w.current.instruments.map((i) => i.token)).toEqual([3045, 11536]);
    expect([w.current.from, w.current.to]).toEqual(['2024-12-01', '2025-02-28']);
    await expect(
      CandleRecordingWriter.open(dir, { ...init, interval: '1d' }, 'extend'),
    ).rejects.toThrow(CandleRecordingMismatch);
  });

  it('refuses a folder that holds a tick recording', async () => {
    const { mkdir } = await import('node:fs/promises');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'meta.json'), JSON.stringify({ format: 'tiqs-runner-recording' }));
    await expect(CandleRecordingWriter.open(dir, init, 'resume')).rejects.toThrow(/not candles/);
    expect(await isCandleRecording(dir)).toBe(false);
    await writeFile(join(dir, 'meta.json'), '{"format":');
    await expect(CandleRecordingWriter.open(dir, init, 'resume')).rejects.toThrow(
      /meta\.json is not readable JSON/,
    );
  });
});

describe('candle recording reader errors', () => {
  it('names file and line of a bad row', async () => {
    const w = await CandleRecordingWriter.open(dir, init, 'resume');
    await w.writeChunk(3045, '2025-01-01', '2025-01-31', bars(OPEN_0102, 2, 800));
    const file = join(dir, 'candles/3045/2025-01-01_2025-01-31.csv');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace(',801,', ',80.1,'));
    const err = await all(dir, 3045).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RecordingError);
    expect((err as Error).message).toMatch(/2025-01-01_2025-01-31\.csv:3: open is not an integer/);
  });

  it('rejects overlapping chunks (bars not in time order)', async () => {
    const w = await CandleRecordingWriter.open(dir, init, 'resume');
    await w.writeChunk(3045, '2025-01-01', '2025-01-31', bars(OPEN_0102, 2, 800));
    await w.writeChunk(3045, '2025-01-02', '2025-01-02', bars(OPEN_0102, 1, 800));
    await expect(all(dir, 3045)).rejects.toThrow(/not after the previous bar/);
  });

  it('says not-recorded for a folder without meta, bad-format for a bad meta', async () => {
    await expect(readCandleRecordingMeta(dir)).rejects.toMatchObject({ problem: 'not-recorded' });
    await CandleRecordingWriter.open(dir, init, 'resume');
    const meta = JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8'));
    await writeFile(join(dir, 'meta.json'), JSON.stringify({ ...meta, interval: '2m' }));
    await expect(readCandleRecordingMeta(dir)).rejects.toMatchObject({
      problem: 'bad-format',
      message: expect.stringMatching(/meta\.json: interval:/),
    });
    expect(await readdir(dir)).toContain('meta.json');
  });
});
