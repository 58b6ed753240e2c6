import { describe, expect, it } from 'vitest';
import { PnlCurve } from './pnl-curve.ts';

const at = (iso: string) => Date.parse(iso);

describe('PnlCurve', () => {
  it('keeps one point per five-second bucket, the last sample winning', () => {
    const curve = new PnlCurve();
    curve.sample(at('2026-11-20T09:20:01+05:30'), 100);
    curve.sample(at('2026-11-20T09:20:04+05:30'), 150);
    curve.sample(at('2026-11-20T09:20:05+05:30'), -50);
    expect(curve.list()).toEqual([
      { time: at('2026-11-20T09:20:00+05:30') / 1000, value: 150 },
      { time: at('2026-11-20T09:20:05+05:30') / 1000, value: -50 },
    ]);
  });

  it('starts afresh on a new IST day', () => {
    const curve = new PnlCurve();
    curve.sample(at('2026-11-20T15:29:00+05:30'), 100);
    // 00:10 IST on the 21st is still the 20th in UTC: the day is IST's.
    curve.sample(at('2026-11-21T00:10:00+05:30'), 7);
    expect(curve.list().map((p) => p.value)).toEqual([7]);
  });
});
