import { describe, expect, it } from 'vitest';
import { fullQuote } from '../../test/helpers/fixtures.ts';
import { QUOTE_MODES } from '../domain/order-params.ts';
import { sourceTimeOf } from '../market-data/market-quote.ts';
import { modeCovers, projectQuote } from '../market-data/project-quote.ts';
import { RecordReader } from './record-reader.ts';
import { RecordWriter } from './record-writer.ts';
import { openRecordings } from './recording-set.ts';

const T0 = Date.parse('2026-11-20T03:45:00Z');

/** Every record of `reader`, each visited once. */
function* records(reader: RecordReader): Generator<RecordReader> {
  while (reader.next()) yield reader;
}

describe('RecordReader.quoteAs and sourceTime', () => {
  it('decode each record of the sample day exactly as quote(), projected, and sourceTimeOf do', async () => {
    // The shipped sample day: full quotes with depth, LTP quotes and greeks of 7 tokens.
    const set = await openRecordings('backtests/data/sample-day');
    let compared = 0;
    for await (const block of set.blocks()) {
      for (const r of records(block)) {
        if (r.kind === 'greeks') continue;
        for (const mode of QUOTE_MODES) {
          if (!modeCovers(r.kind, mode)) continue;
          // Same fields, same values, same key order (JSON compares the order too).
          expect(JSON.stringify(r.quoteAs(mode))).toBe(
            JSON.stringify(projectQuote(r.quote(), r.kind, mode)),
          );
          compared += 1;
        }
        expect(r.sourceTime(T0)).toBe(sourceTimeOf(r.quote(), r.kind, T0));
      }
    }
    expect(compared).toBeGreaterThan(50_000);
  });

  it('projects ohlcv records and takes the exchange time by the same fallbacks as sourceTimeOf', () => {
    // The sample day has no ohlcv records, and no full record without its `time`: written
    // here, every field distinct, so a swapped offset shows.
    const w = new RecordWriter(T0);
    const ohlcv = { token: 7, open: 11, high: 13, low: 10, close: 12, ltp: 14, oi: 3, volume: 5 };
    w.quote('ohlcv', { ...ohlcv, ltt: 1_795_146_000 }, T0);
    w.quote('ohlcv', { ...ohlcv, ltt: 0 }, T0);
    w.quote('full', { ...fullQuote, time: 0 }, T0);
    w.quote('full', { ...fullQuote, time: 0, ltt: 0 }, T0);
    let n = 0;
    for (const r of records(new RecordReader(w.bytes()))) {
      if (r.kind === 'greeks') continue;
      for (const mode of QUOTE_MODES) {
        if (!modeCovers(r.kind, mode)) continue;
        expect(JSON.stringify(r.quoteAs(mode))).toBe(
          JSON.stringify(projectQuote(r.quote(), r.kind, mode)),
        );
      }
      expect(r.sourceTime(T0)).toBe(sourceTimeOf(r.quote(), r.kind, T0));
      n += 1;
    }
    expect(n).toBe(4);
    const r = new RecordReader(w.bytes());
    r.next();
    expect(r.quoteAs('ltp')).toEqual({ token: 7, ltp: 14, close: 12 });
    expect(r.sourceTime(T0)).toBe(1_795_146_000_000);
    r.next();
    expect(r.sourceTime(T0)).toBe(T0);
    r.next();
    expect(r.sourceTime(T0)).toBe(fullQuote.ltt * 1_000);
    r.next();
    expect(r.sourceTime(T0)).toBe(T0);
  });

  it('refuses a mode the record does not cover, naming the source', () => {
    const w = new RecordWriter(T0);
    w.quote('ltp', { token: 7, ltp: 2, close: 2 }, T0);
    w.greeks(7, { iv: 0.2, delta: 0.5, gamma: 0, theta: 0, vega: 0 }, T0);
    const r = new RecordReader(w.bytes(), 'day-1/quotes.bin');
    r.next();
    expect(r.quoteAs('ltp')).toEqual({ token: 7, ltp: 2, close: 2 });
    expect(() => r.quoteAs('ohlcv')).toThrow(/day-1\/quotes\.bin: a ltp record has no ohlcv quote/);
    r.next();
    expect(() => r.quoteAs('ltp')).toThrow(/a greeks record has no ltp quote/);
  });
});
