import { describe, expect, it } from 'vitest';
import { memoryRecording } from '../../test/helpers/memory-recording.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { RecordWriter } from '../recording/record-writer.ts';
import { ReplaySource } from './replay-source.ts';
import { roundTrips } from './round-trips.ts';
import type { FillRecord } from './trade-ledger.ts';

const T0 = Date.parse('2026-11-20T03:45:00Z');

function replay(clock: VirtualClock): ReplaySource {
  const w = new RecordWriter(T0);
  w.quote('ltp', { token: 1, ltp: 100, close: 90 }, T0);
  w.quote('ltp', { token: 1, ltp: 101, close: 90 }, T0 + 1_000);
  w.quote(
    'ohlcv',
    { token: 1, open: 95, high: 110, low: 94, close: 90, ltp: 105, ltt: 0, oi: 0, volume: 7 },
    T0 + 2_000,
  );
  w.greeks(2, { iv: 0.2, delta: 0.5, gamma: 0, theta: 0, vega: 0 }, T0 + 1_000);
  return new ReplaySource(
    memoryRecording(w, { startMs: T0, endMs: T0 + 2_000, records: 4 }),
    clock,
  );
}

describe('ReplaySource', () => {
  it('answers with the latest record at or before now, never a later one', async () => {
    const clock = new VirtualClock(T0 + 500);
    const source = replay(clock);
    expect(await source.quotes('ltp', [1])).toEqual([{ token: 1, ltp: 100, close: 90 }]);
    clock.advanceTo(T0 + 1_999);
    expect(await source.quotes('ltp', [1])).toEqual([{ token: 1, ltp: 101, close: 90 }]);
    clock.advanceTo(T0 + 2_000);
    // A richer record answers a poorer mode, projected down.
    expect(await source.quotes('ltp', [1])).toEqual([{ token: 1, ltp: 105, close: 90 }]);
    expect(source.served).toBe(3);
  });

  it('leaves out tokens it has nothing for, and refuses greeks it never saw', async () => {
    const clock = new VirtualClock(T0 - 1);
    const source = replay(clock);
    expect(await source.quotes('ltp', [1, 3])).toEqual([]);
    await expect(source.greeks([2])).rejects.toThrow(/no greeks of token 2/);
    clock.advanceTo(T0 + 1_000);
    expect((await source.greeks([2]))[0]?.delta).toBe(0.5);
    // Nothing richer than ohlcv was recorded: a full request gets nothing.
    expect(await source.quotes('full', [1])).toEqual([]);
  });
});

describe('roundTrips', () => {
  const fill = (at: number, side: 'B' | 'S', quantity: number, price: number): FillRecord => ({
    at,
    strategyId: 's',
    intentId: `i${at}`,
    tag: 't',
    token: 1,
    symbol: 'X',
    exchange: 'NSE',
    product: 'I',
    side,
    quantity,
    price,
  });

  it('closes a trip when flat, splits a flip, and marks what is still open', () => {
    const trips = roundTrips(
      [fill(1, 'B', 10, 100), fill(2, 'S', 15, 110), fill(3, 'B', 5, 100)],
      () => 30,
      () => 120,
    );
    expect(trips.map((t) => [t.direction, t.quantity, t.gross, t.costs, t.closedAt])).toEqual([
      ['long', 10, 100, 50, 2], // 30 of the first fill + 20 of the flip's 30
      ['short', 5, 50, 40, 3], // 10 of the flip + 30
    ]);
    const open = roundTrips(
      [fill(1, 'B', 10, 100)],
      () => 0,
      () => 120,
    );
    expect(open[0]?.closedAt).toBeUndefined();
    expect(open[0]?.gross).toBe(200);
  });
});
