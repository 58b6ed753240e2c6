import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Holidays } from '../api/schemas/utilities.ts';
import { CandleImportError } from './candle-import-error.ts';
import type { CandleInstrument } from './candle-recording-meta.ts';
import { CandleRecordingMismatch } from './candle-recording-mismatch.ts';
import { readCandleRecordingMeta } from './candle-recording-reader.ts';
import { CandleRecordingWriter } from './candle-recording-writer.ts';
import { importCandles } from './import-candles.ts';

const SBIN: CandleInstrument = {
  token: 3045,
  exchange: 'NSE',
  symbol: 'SBIN-EQ',
  tickSize: 5,
  lotSize: 1,
};
const NIFTY: CandleInstrument = {
  token: 26000,
  exchange: 'NSE',
  symbol: 'NIFTY',
  tickSize: 1,
  lotSize: 1,
};
/** The source's master rows, as `history` keeps them (NIFTY is an INDEX). */
const MASTER = [
  'Exchange,Token,Symbol,Name,Segment,Expiry,OptionType,StrikePrice,LotSize,TickSize,PricePrecision,Multiplier,PriceMultiplier',
  'NSE,3045,SBIN-EQ,STATE BANK OF INDIA,EQ,,,0,1,5,2,1,1.0',
  'NSE,26000,NIFTY,NIFTY 50,INDEX,,,0,1,1,2,1,1.0',
];
const SOURCE_HOLIDAYS: Holidays = {
  holidays: { '26-01-2025': 'Republic Day' },
  specialTradingDays: { '01-11-2025': ['18:00-19:00'] },
};
const ist = (s: string): number => Date.parse(`${s}+05:30`);

let dir: string;
let csv: string;

/** A `history`-made folder: SBIN and NIFTY, the source's master and holidays. */
async function historyFolder(complete: boolean): Promise<void> {
  const writer = await CandleRecordingWriter.open(
    dir,
    {
      interval: '1m',
      from: '2025-01-02',
      to: '2025-01-02',
      instruments: [SBIN, NIFTY],
      holidays: SOURCE_HOLIDAYS,
      source: 'simulator',
    },
    'resume',
  );
  await writer.writeFile('instruments.csv', `${MASTER.join('\n')}\n`);
  for (const [token, open] of [
    [SBIN.token, 80_000],
    [NIFTY.token, 2_400_000],
  ] as const) {
    const bar = { start: ist('2025-01-02T09:15:00'), open, high: open, low: open, close: open };
    await writer.writeChunk(token, '2025-01-02', '2025-01-02', [{ ...bar, volume: 1 }]);
  }
  if (complete) await writer.finish({});
}

const reliance = (holidaysFile?: string) =>
  importCandles({
    csv,
    out: dir,
    token: 2885,
    exchange: 'NSE',
    symbol: 'RELIANCE-EQ',
    interval: '1m',
    units: 'rupees',
    ...(holidaysFile === undefined ? {} : { holidaysFile }),
  });

beforeEach(async () => {
  const root = await mkdtemp(join(tmpdir(), 'tr-import-'));
  dir = join(root, 'rec');
  csv = join(root, 'reliance.csv');
  await writeFile(
    csv,
    'timestamp,open,high,low,close,volume\n2025-01-02 09:15:00,1200,1201,1199,1200.5,10\n',
  );
});

describe('importCandles into a history folder', () => {
  it('keeps the other tokens’ master rows, the source’s holidays and source', async () => {
    await historyFolder(true);
    await reliance();
    const master = (await readFile(join(dir, 'instruments.csv'), 'utf8')).trim().split('\n');
    expect(master.slice(0, 3)).toEqual(MASTER);
    expect(master[3]).toMatch(/^NSE,2885,RELIANCE-EQ,RELIANCE-EQ,EQ,/);
    const { meta } = await readCandleRecordingMeta(dir);
    expect(meta.source).toBe('simulator');
    expect(meta.instruments.map((i) => [i.token, i.source])).toEqual([
      [3045, undefined],
      [26000, undefined],
      [2885, 'import'],
    ]);
    expect(meta.holidays?.holidays['26-01-2025']).toBe('Republic Day');
    expect(meta.holidays?.specialTradingDays).toEqual(SOURCE_HOLIDAYS.specialTradingDays);
    expect(meta.barsByToken).toEqual({ '3045': 1, '26000': 1, '2885': 1 });
  });

  it('refuses an unfinished history download, and leaves it unfinished', async () => {
    await historyFolder(false);
    await expect(reliance()).rejects.toBeInstanceOf(CandleRecordingMismatch);
    await expect(reliance()).rejects.toThrow(/unfinished history download/);
    const { meta } = await readCandleRecordingMeta(dir);
    expect(meta.complete).toBe(false);
    expect(meta.instruments.map((i) => i.token)).toEqual([3045, 26000]);
  });

  it('refuses a --holidays file that does not cover the data’s years, naming them', async () => {
    const file = join(dir, '..', 'hol2026.json');
    await writeFile(
      file,
      JSON.stringify({ holidays: { '26-01-2026': 'Republic Day' }, specialTradingDays: {} }),
    );
    const error = await reliance(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CandleImportError);
    expect((error as Error).message).toMatch(/hol2026\.json: lists no day of 2025/);
  });

  it('warns about a paise file read as rupees, prices off the tick and naive UTC times', async () => {
    // RELIANCE in paise, stamped 03:45 (09:15 IST written as naive UTC), one price off the tick.
    await writeFile(
      csv,
      'timestamp,open,high,low,close,volume\n2025-01-02 03:45:00,120050,120100,120000,120093.01,10\n2025-01-02 03:46:00,120093,120100,120000,120095,10\n',
    );
    const r = await reliance();
    expect(r.firstClose).toBe(12_009_301);
    expect(r.warnings).toHaveLength(3);
    expect(r.warnings[0]).toMatch(/^1 bar\(s\) have prices off the tick size \(5 paise\)/);
    expect(r.warnings[1]).toMatch(/median close is ₹1,20,095\.00: a file in paise\?/);
    expect(r.warnings[2]).toMatch(/2 of 2 bars start outside 09:15–15:30 IST/);
    // A sound file warns of nothing.
    await writeFile(
      csv,
      'timestamp,open,high,low,close,volume\n2025-01-02 09:15:00,800.5,801,800,800.95,100\n',
    );
    expect((await reliance()).warnings).toEqual([]);
  });

  it('refuses an NFO import without --lot-size', async () => {
    const nfo = importCandles({
      csv,
      out: dir,
      token: 40040,
      exchange: 'NFO',
      symbol: 'NIFTY25JANFUT',
      interval: '1m',
      units: 'rupees',
    });
    await expect(nfo).rejects.toThrow(/--exchange NFO needs --lot-size/);
  });
});
