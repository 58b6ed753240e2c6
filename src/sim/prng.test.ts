import { describe, expect, it } from 'vitest';
import { hashInts, Prng } from './prng.ts';

describe('Prng', () => {
  it('repeats its sequence for a seed and differs across seeds', () => {
    const draw = (seed: number) => {
      const r = new Prng(seed);
      return Array.from({ length: 5 }, () => r.next());
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('draws standard normals', () => {
    const r = new Prng(1);
    const xs = Array.from({ length: 20_000 }, () => r.normal());
    const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
    const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / xs.length;
    expect(Math.abs(mean)).toBeLessThan(0.03);
    expect(variance).toBeGreaterThan(0.95);
    expect(variance).toBeLessThan(1.05);
  });

  it('hashes large numbers fully', () => {
    expect(hashInts(1, 2 ** 40)).not.toBe(hashInts(1, 2 ** 41));
  });
});
