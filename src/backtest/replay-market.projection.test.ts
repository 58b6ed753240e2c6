import { afterEach, describe, expect, it, vi } from 'vitest';
import { fullQuote } from '../../test/helpers/fixtures.ts';
import { memoryRecording } from '../../test/helpers/memory-recording.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { MarketQuote } from '../market-data/market-quote.ts';
import type { Recording } from '../recording/read-recording.ts';
import { RecordReader } from '../recording/record-reader.ts';
import { RecordWriter } from '../recording/record-writer.ts';
import { ReplayMarket } from './replay-market.ts';

const T0 = Date.parse('2026-11-20T03:45:00Z');

/** Three full quotes of SBIN (3045), a second apart, each a new LTP. */
function fullQuotes(): Recording {
  const w = new RecordWriter(T0);
  for (let i = 0; i < 3; i++) w.quote('full', { ...fullQuote, ltp: 80_190 + i }, T0 + i * 1_000);
  return memoryRecording(w, { startMs: T0, endMs: T0 + 2_000, records: 3 });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ReplayMarket: records decoded no richer than the modes followed', () => {
  it('gives an LTP follower of full records the same stream without decoding their depth', async () => {
    const decodes = vi.spyOn(RecordReader.prototype, 'quote');
    const market = new ReplayMarket(fullQuotes(), new VirtualClock(T0));
    const seen: MarketQuote[] = [];
    market.quote$(3045, 'ltp').subscribe((q) => seen.push(q));
    await market.play(T0 + 2_000);
    expect(seen.map((q) => q.quote)).toEqual(
      [0, 1, 2].map((i) => ({ token: 3045, ltp: 80_190 + i, close: 79_900 })),
    );
    // The exchange's time is the full quote's own `time` (s), as the bus stamps it.
    expect(seen.every((q) => q.sourceTime === fullQuote.time * 1_000)).toBe(true);
    expect(seen.map((q) => q.receivedAt - T0)).toEqual([0, 1_000, 2_000]);
    expect(decodes).not.toHaveBeenCalled();
    market.close();
  });

  it('decodes the whole record once a full follower is there', async () => {
    const decodes = vi.spyOn(RecordReader.prototype, 'quote');
    const market = new ReplayMarket(fullQuotes(), new VirtualClock(T0));
    const ltp: number[] = [];
    const depth: number[] = [];
    market.quote$(3045, 'ltp').subscribe((q) => ltp.push(q.quote.ltp));
    market.quote$(3045, 'full').subscribe((q) => depth.push(q.quote.bids.length));
    await market.play(T0 + 2_000);
    expect(ltp).toEqual([80_190, 80_191, 80_192]);
    expect(depth).toEqual([5, 5, 5]);
    expect(decodes).toHaveBeenCalledTimes(3);
    market.close();
  });

  it('gives a full follower that subscribes while a record goes out (a paper order looking at the book) that same record', async () => {
    // Checked to fail without the second look in publishCurrent: the full follower then
    // got its first quote a record (1 s) late, and the parity tests' first fill with it.
    const market = new ReplayMarket(fullQuotes(), new VirtualClock(T0));
    const full: [number, number][] = [];
    const ohlcv: number[] = [];
    market.quote$(3045, 'ohlcv').subscribe((q) => {
      ohlcv.push(q.receivedAt - T0);
      if (ohlcv.length > 1) return;
      market
        .quote$(3045, 'full')
        .subscribe((f) => full.push([f.receivedAt - T0, f.quote.asks.length]));
    });
    await market.play(T0 + 1_000);
    expect(full).toEqual([
      [0, 5],
      [1_000, 5],
    ]);
    // The second look leaves the lower follower's stream as it was: each record once.
    expect(ohlcv).toEqual([0, 1_000]);
    market.close();
  });

  it('gives a middle mode opened while only LTP is followed that same record, each record once', async () => {
    const market = new ReplayMarket(fullQuotes(), new VirtualClock(T0));
    const ltp: number[] = [];
    const ohlcv: [number, number][] = [];
    market.quote$(3045, 'ltp').subscribe((q) => {
      ltp.push(q.receivedAt - T0);
      if (ltp.length > 1) return;
      market
        .quote$(3045, 'ohlcv')
        .subscribe((o) => ohlcv.push([o.receivedAt - T0, o.quote.volume]));
    });
    await market.play(T0 + 1_000);
    expect(ohlcv).toEqual([
      [0, fullQuote.volume],
      [1_000, fullQuote.volume],
    ]);
    expect(ltp).toEqual([0, 1_000]);
    market.close();
  });
});
