import { describe, expect, it } from 'vitest';
import { packBatches } from './pack-batches.ts';
import { planQuotePolls, type QuoteDemand } from './poll-plan.ts';

const range = (from: number, n: number): number[] => Array.from({ length: n }, (_, i) => from + i);
const sizes = (batches: ReadonlyArray<{ mode: string | undefined; tokens: readonly number[] }>) =>
  batches.map((b) => `${b.mode}:${b.tokens.length}`);

describe('packBatches: the fewest requests per interval', () => {
  it('packs the issue example (120 unique: 30 full, 80 ohlcv, 70 ltp, overlapping) into 3', () => {
    // Subscriptions: full 1..30, ohlcv 21..100, ltp 51..120. Richest mode per token:
    // full 1..30, ohlcv 31..100, ltp 101..120 — per mode that is 1 + 2 + 1 = 4 requests.
    const demands = new Map<number, QuoteDemand[]>();
    const want = (tokens: number[], mode: QuoteDemand['mode']) => {
      for (const t of tokens)
        demands.set(t, [...(demands.get(t) ?? []), { intervalMs: 1_000, mode }]);
    };
    want(range(1, 30), 'full');
    want(range(21, 80), 'ohlcv');
    want(range(51, 70), 'ltp');
    expect(demands.size).toBe(120);
    const batches = planQuotePolls(demands, 50).batches.get(1_000) ?? [];
    expect(batches).toHaveLength(3);
    // The 20 ltp tokens ride in ohlcv batches (cheap), not in the full one.
    expect(sizes(batches)).toEqual(['full:30', 'ohlcv:50', 'ohlcv:40']);
    // Every token once, each in a mode covering what its subscribers want.
    const seen = batches.flatMap((b) => b.tokens);
    expect(new Set(seen).size).toBe(120);
    expect(seen).toHaveLength(120);
    for (const b of batches) {
      for (const t of b.tokens) {
        if (t <= 30) expect(b.mode).toBe('full');
        else if (t <= 100) expect(b.mode).not.toBe('ltp');
      }
    }
  });

  it('upgrades nothing when the modes fill their own batches as well', () => {
    expect(sizes(packBatches({ full: range(1, 10), ltp: range(100, 50) }, 50))).toEqual([
      'full:10',
      'ltp:50',
    ]);
    expect(sizes(packBatches({ ohlcv: range(1, 50), ltp: range(100, 50) }, 50))).toEqual([
      'ohlcv:50',
      'ltp:50',
    ]);
  });

  it('reaches ⌈n / batchSize⌉ for any mix, never polling a token below its mode', () => {
    for (const [f, o, l, b] of [
      [10, 10, 85, 50],
      [49, 49, 49, 50],
      [1, 1, 1, 2],
      [7, 0, 13, 5],
      [0, 33, 18, 10],
      [101, 3, 0, 50],
    ] as const) {
      const full = range(1, f);
      const ohlcv = range(1_000, o);
      const ltp = range(2_000, l);
      const batches = packBatches({ full, ohlcv, ltp }, b);
      expect(batches).toHaveLength(Math.ceil((f + o + l) / b));
      for (const batch of batches) expect(batch.tokens.length).toBeLessThanOrEqual(b);
      const modeOf = new Map(batches.flatMap((x) => x.tokens.map((t) => [t, x.mode] as const)));
      expect(modeOf.size).toBe(f + o + l);
      for (const t of full) expect(modeOf.get(t)).toBe('full');
      for (const t of ohlcv) expect(modeOf.get(t)).not.toBe('ltp');
    }
    // 10 full, 10 ohlcv, 85 ltp at 50: 35 ltp tokens ride in the ohlcv batch (6 fields
    // more each) rather than 10 ohlcv tokens in the full one (31 more each, with depth).
    expect(
      sizes(packBatches({ full: range(1, 10), ohlcv: range(100, 10), ltp: range(200, 85) }, 50)),
    ).toEqual(['full:10', 'ohlcv:45', 'ltp:50']);
  });
});
