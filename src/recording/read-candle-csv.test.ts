import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CandleImportError } from './candle-import-error.ts';
import { readCandleCsv } from './read-candle-csv.ts';

async function file(text: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'csv-')), 'bars.csv');
  await writeFile(path, text);
  return path;
}

const HEADER = 'timestamp,open,high,low,close,volume';
const ROW1 = '2025-01-02 09:15:00,801.90,802.50,801.00,802.00,100';
const ROW2 = '2025-01-02 09:16:00,802.00,803.00,801.50,802.25,50';
const read = (path: string) => readCandleCsv(path, { units: 'rupees', interval: '1m' });

async function failure(text: string): Promise<CandleImportError> {
  const path = await file(text);
  const err = await read(path).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(CandleImportError);
  return err as CandleImportError;
}

describe('readCandleCsv', () => {
  it('reads bars in paise, naive times as IST, oi when the column is there', async () => {
    expect(await read(await file(`${HEADER}\n${ROW1}\n${ROW2}\n`))).toEqual([
      {
        start: Date.parse('2025-01-02T09:15:00+05:30'),
        open: 80_190,
        high: 80_250,
        low: 80_100,
        close: 80_200,
        volume: 100,
      },
      {
        start: Date.parse('2025-01-02T09:16:00+05:30'),
        open: 80_200,
        high: 80_300,
        low: 80_150,
        close: 80_225,
        volume: 50,
      },
    ]);
    const withOi = await read(
      await file(`Timestamp,Open,High,Low,Close,Volume,OI\r\n${ROW1},7\r\n${ROW2},\r\n`),
    );
    expect(withOi.map((b) => b.oi)).toEqual([7, undefined]);
  });

  it('names file, line (header is 1) and column of a bad row', async () => {
    let e = await failure(`${HEADER}\n${ROW1}\n2025-01-02 09:16:00,802,803,801.505,802,5\n`);
    expect([e.line, e.column]).toEqual([3, 4]);
    expect(e.message).toMatch(/bars\.csv:3: column 4: low: not a whole number of paise: 801\.505$/);
    // Blank lines still count: the parser's line, not the row index.
    e = await failure(`${HEADER}\n\n${ROW1}\n\n2025-01-02 09:16:00,802,803,801,802,lots\n`);
    expect([e.line, e.column]).toEqual([5, 6]);
    e = await failure(`${HEADER}\n${ROW1}\nyesterday,802,803,801,802,5\n`);
    expect([e.line, e.column, e.reason]).toEqual([
      3,
      1,
      'timestamp: not an ISO 8601 timestamp: "yesterday"',
    ]);
    e = await failure(`${HEADER}\n${ROW1}\n2025-01-02 09:16:00,802,801,801,802,5\n`);
    expect([e.line, e.column]).toEqual([3, 3]);
    e = await failure(`${HEADER}\n${ROW1}\n2025-01-02 09:16:00,802,803,801\n`);
    expect([e.line, e.column, e.reason]).toEqual([3, undefined, 'expected 6 columns, found 4']);
  });

  it('wants the header, rows in time order once each, and whole minutes', async () => {
    let e = await failure(`time,open,high,low,close,volume\n${ROW1}\n`);
    expect([e.line, e.column]).toEqual([1, 1]);
    expect(e.message).toMatch(/header must be timestamp,open,high,low,close,volume\[,oi\]/);
    e = await failure(`${HEADER}\n${ROW2}\n${ROW1}\n`);
    expect([e.line, e.column]).toEqual([3, 1]);
    e = await failure(`${HEADER}\n${ROW1}\n${ROW1}\n`);
    expect(e.line).toBe(3);
    e = await failure(`${HEADER}\n2025-01-02 09:15:30,802,803,801,802,5\n`);
    expect(e.reason).toBe('timestamp: not on a whole minute');
    e = await failure('');
    expect(e.message).toMatch(/empty file/);
  });
});
