import { describe, expect, it } from 'vitest';
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

  it('takes the exchange time of an ohlcv record from its ltt, and the receipt time without one', () => {
    const w = new RecordWriter(T0);
    const ohlcv = { token: 7, open: 1, high: 3, low: 1, close: 2, ltp: 2, oi: 0, volume: 5 };
    w.quote('ohlcv', { ...ohlcv, ltt: 1_795_146_000 }, T0);
    w.quote('ohlcv', { ...ohlcv, ltt: 0 }, T0);
    const r = new RecordReader(w.bytes());
    r.next();
    expect(r.sourceTime(T0)).toBe(1_795_146_000_000);
    expect(r.quoteAs('ltp')).toEqual({ token: 7, ltp: 2, close: 2 });
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
