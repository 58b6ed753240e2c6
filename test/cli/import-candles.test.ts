import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  candleRows,
  readCandleRecordingMeta,
} from '../../src/recording/candle-recording-reader.ts';
import { runCli } from './run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'tr-import-'));
const out = join(dir, 'rec');

function csv(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

// Thu 2 and Mon 6 Jan 2025: Fri 3 Jan has no bar, so it is derived as a holiday.
const SBIN = csv(
  'sbin.csv',
  `timestamp,open,high,low,close,volume
2025-01-02T09:15:00+05:30,801.90,802.50,801.00,802.00,100
2025-01-02 09:16:00,802.00,803.00,801.50,802.25,50
2025-01-06 09:15:00,790.05,791.00,789.00,790.00,70
`,
);
const TCS = csv(
  'tcs.csv',
  'timestamp,open,high,low,close,volume\n2025-01-02T09:15:00,410050,410100,409900,410000,3\n',
);

const args = (file: string, token: string, symbol: string, ...more: string[]) => [
  'import-candles',
  '--csv',
  file,
  '--token',
  token,
  '--exchange',
  'NSE',
  '--symbol',
  symbol,
  '--interval',
  '1m',
  '--out',
  out,
  ...more,
];

async function bars(token: number) {
  const list = [];
  for await (const c of candleRows(out, token))
    list.push([c.start, c.open, c.high, c.low, c.close, c.volume]);
  return list;
}

describe('tiqs-runner import-candles', () => {
  it('imports two tokens into one recording, prices in paise, instruments and holidays written', async () => {
    const first = await runCli(...args(SBIN, '3045', 'SBIN-EQ', '--tick-size', '5'));
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^import-candles: 3 1m bars of 3045 \(SBIN-EQ\), 2025-01-02\.\.2025-01-06/,
    );
    const second = await runCli(
      ...args(TCS, '11536', 'TCS-EQ', '--units', 'paise', '--tick-size', '10', '--lot-size', '2'),
    );
    expect(second.code).toBe(0);
    expect(await bars(3045)).toEqual([
      [Date.parse('2025-01-02T09:15:00+05:30'), 80_190, 80_250, 80_100, 80_200, 100],
      [Date.parse('2025-01-02T09:16:00+05:30'), 80_200, 80_300, 80_150, 80_225, 50],
      [Date.parse('2025-01-06T09:15:00+05:30'), 79_005, 79_100, 78_900, 79_000, 70],
    ]);
    expect(await bars(11536)).toEqual([
      [Date.parse('2025-01-02T09:15:00+05:30'), 410_050, 410_100, 409_900, 410_000, 3],
    ]);
    const { meta } = await readCandleRecordingMeta(out);
    expect(meta).toMatchObject({
      source: 'import',
      interval: '1m',
      from: '2025-01-02',
      to: '2025-01-06',
      bars: 4,
      complete: true,
    });
    expect(meta.instruments).toEqual([
      { token: 3045, exchange: 'NSE', symbol: 'SBIN-EQ', tickSize: 5, lotSize: 1 },
      { token: 11536, exchange: 'NSE', symbol: 'TCS-EQ', tickSize: 10, lotSize: 2 },
    ]);
    expect(Object.keys(meta.holidays?.holidays ?? {})).toEqual(['03-01-2025']);
    expect(meta.note).toMatch(/derived from the data/);
    const rows = readFileSync(join(out, 'instruments.csv'), 'utf8').trim().split('\n');
    expect(rows.slice(1).map((r) => r.split(',').slice(0, 3).join(','))).toEqual([
      'NSE,3045,SBIN-EQ',
      'NSE,11536,TCS-EQ',
    ]);
  });

  it('fails a bad row with exit 2 naming file, line and column, and refuses another interval', async () => {
    const bad = csv(
      'bad.csv',
      'timestamp,open,high,low,close,volume\n2025-01-02 09:15:00,801.905,802,801,802,1\n',
    );
    const r = await runCli(...args(bad, '2885', 'RELIANCE-EQ'));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `import-candles: ${bad}:2: column 2: open: not a whole number of paise: 801.905\n`,
    );
    const other = await runCli(
      ...args(TCS, '11536', 'TCS-EQ', '--units', 'paise').map((a) => (a === '1m' ? '5m' : a)),
    );
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/already holds interval 1m, not 5m/);
  });
});
