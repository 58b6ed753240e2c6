import { describe, expect, it } from 'vitest';
import { blackScholes } from './black-scholes.ts';

describe('blackScholes', () => {
  const base = { spot: 100, strike: 100, years: 1, vol: 0.2, rate: 0.05 };

  it('matches the textbook value', () => {
    expect(blackScholes({ ...base, type: 'CE' }).price).toBeCloseTo(10.4506, 3);
    expect(blackScholes({ ...base, type: 'PE' }).price).toBeCloseTo(5.5735, 3);
  });

  it('satisfies put-call parity and delta parity', () => {
    const c = blackScholes({ ...base, type: 'CE', strike: 95 });
    const p = blackScholes({ ...base, type: 'PE', strike: 95 });
    expect(c.price - p.price).toBeCloseTo(100 - 95 * Math.exp(-0.05), 6);
    expect(c.delta - p.delta).toBeCloseTo(1, 6);
    expect(c.gamma).toBeCloseTo(p.gamma, 9);
    expect(c.vega).toBeCloseTo(p.vega, 9);
    expect(c.theta).toBeLessThan(0);
  });

  it('gives intrinsic value at expiry', () => {
    expect(blackScholes({ ...base, type: 'CE', years: 0, strike: 90 }).price).toBe(10);
    expect(blackScholes({ ...base, type: 'PE', years: 0, strike: 90 }).price).toBe(0);
  });
});
