import { describe, expect, it } from 'vitest';
import type { FullQuote } from '../api/schemas/quote.ts';
import { RecordReader } from './record-reader.ts';
import { RecordWriter } from './record-writer.ts';
import { RecordingError } from './recording-error.ts';

const T0 = Date.parse('2026-11-20T03:45:00Z');
const full: FullQuote = {
  token: 3045,
  asks: [
    { orders: 2, price: 80_005, quantity: 300 },
    { orders: 1, price: 80_010, quantity: 100 },
  ],
  bids: [{ orders: 3, price: 79_995, quantity: 250 }],
  avgPrice: 79_900,
  open: 79_500,
  high: 80_200,
  low: 79_400,
  close: 79_450,
  ltp: 80_000,
  ltq: 5,
  ltt: T0 / 1_000,
  time: T0 / 1_000 + 1,
  netChange: 550,
  netChangeIndicator: 43,
  oi: 0,
  oiDayHigh: 0,
  oiDayLow: 0,
  lowerLimit: 63_560,
  upperLimit: 95_340,
  totalBuyQty: 250,
  totalSellQty: 400,
  volume: 12_345_678_901,
};

describe('quote file format', () => {
  it('round-trips every record kind, in order, with exact values', () => {
    const w = new RecordWriter(T0);
    w.quote('ltp', { token: 26000, ltp: 2_600_000, close: 2_590_000 }, T0);
    w.quote(
      'ohlcv',
      { token: 2885, open: 1, high: 2, low: 1, close: 1, ltp: 2, ltt: 5, oi: 7, volume: 9 },
      T0 + 1_000,
    );
    w.quote('full', full, T0 + 2_000);
    w.greeks(40040, { iv: 0.15, delta: 0.51, gamma: 0.001, theta: -12.5, vega: 8.25 }, T0 + 3_000);
    const r = new RecordReader(w.bytes());
    const seen: unknown[] = [];
    while (r.next()) {
      seen.push([r.kind, r.token, r.time - T0, r.kind === 'greeks' ? r.greeks() : r.quote()]);
    }
    expect(seen).toEqual([
      ['ltp', 26000, 0, { token: 26000, ltp: 2_600_000, close: 2_590_000 }],
      [
        'ohlcv',
        2885,
        1_000,
        { token: 2885, open: 1, high: 2, low: 1, close: 1, ltp: 2, ltt: 5, oi: 7, volume: 9 },
      ],
      ['full', 3045, 2_000, full],
      ['greeks', 40040, 3_000, { iv: 0.15, delta: 0.51, gamma: 0.001, theta: -12.5, vega: 8.25 }],
    ]);
    expect(w.records).toBe(4);
  });

  it('has the documented sizes: 16-byte header, 20 / 52 / 112+24·levels / 52-byte records', () => {
    const w = new RecordWriter(T0);
    w.quote('ltp', { token: 1, ltp: 1, close: 1 }, T0);
    expect(w.bytes().length).toBe(16 + 20);
    const f = new RecordWriter(T0);
    f.quote('full', full, T0);
    expect(f.bytes().length).toBe(16 + 112 + 3 * 12);
  });

  it('refuses a file that is not one, a truncated record, and times outside its window', () => {
    expect(() => new RecordReader(Buffer.from('hello world, not a file'))).toThrow(RecordingError);
    const w = new RecordWriter(T0);
    w.quote('ltp', { token: 1, ltp: 1, close: 1 }, T0);
    const cut = new RecordReader(w.bytes().subarray(0, 30));
    expect(() => cut.next()).toThrow(/truncated/);
    expect(() => w.quote('ltp', { token: 1, ltp: 1, close: 1 }, T0 - 1)).toThrow(/window/);
  });
});
