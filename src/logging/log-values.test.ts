import { describe, expect, it } from 'vitest';
import { compactFields } from './log-values.ts';

const none = () => undefined;

describe('compactFields', () => {
  it('shows premiums, bracket points and any …Price field in rupees, never paise', () => {
    expect(
      compactFields(
        { msg: 'x', premium: 4840, points: 1455, fastAvgPrice: 80048.33, fast: 3 },
        none,
      ),
    ).toBe('premium=₹48.40 points=₹14.55 fastAvgPrice=₹800.48 fast=3');
  });

  it('shows instants as the IST time of day and leaves out their ISO twins, nested too', () => {
    const at = Date.parse('2026-11-23T09:16:20.580+05:30');
    const iso = '2026-11-23T09:16:20.580+05:30';
    expect(
      compactFields(
        { msg: 'x', at, atIso: iso, health: { status: 'stale', at, atIso: iso, token: 3045 } },
        (t) => (t === 3045 ? 'SBIN-EQ' : undefined),
      ),
    ).toBe('at=09:16:20.580 IST health={status: stale, at: 09:16:20.580 IST, token: SBIN-EQ}');
  });

  it('groups rupee text that already has its ₹, and drops a token beside its own symbol', () => {
    expect(
      compactFields(
        { msg: 'x', symbol: 'SBIN-EQ', token: 3045, averagePrice: '₹1399.05' },
        () => 'SBIN-EQ',
      ),
    ).toBe('symbol=SBIN-EQ averagePrice=₹1,399.05');
  });
});
