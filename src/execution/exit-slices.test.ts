import { describe, expect, it } from 'vitest';
import { exitSlices } from './exit-slices.ts';

const limits = { maxOrderQuantity: 10_000, maxOrderValue: 100_000_000, marketProtectionPercent: 0 };
const at = (ltp: number) => ({ ltp, lowerLimit: 0, upperLimit: 0 });

describe('exitSlices', () => {
  it('sends an exit within the limits whole', () => {
    expect(exitSlices(25, 1, at(80_000), limits)).toEqual([25]);
    expect(exitSlices(25, 1, undefined, limits)).toEqual([25]);
  });

  it('slices by value at the last price with a 1% margin, and by quantity', () => {
    // ₹8,000 an order at ₹800 (₹808 with the margin): 9 shares.
    expect(exitSlices(25, 1, at(80_000), { ...limits, maxOrderValue: 800_000 })).toEqual([9, 9, 7]);
    expect(exitSlices(25, 1, undefined, { ...limits, maxOrderQuantity: 10 })).toEqual([10, 10, 5]);
    // The market protection widens the price a limit order goes out at.
    const value = { ...limits, maxOrderValue: 830_000 };
    expect(exitSlices(20, 1, at(80_000), value)).toEqual([10, 10]);
    expect(exitSlices(20, 1, at(80_000), { ...value, marketProtectionPercent: 5 })).toEqual([
      9, 9, 2,
    ]);
  });

  it('keeps whole lots, and sends whole what no lot fits', () => {
    expect(exitSlices(150, 50, undefined, { ...limits, maxOrderQuantity: 120 })).toEqual([100, 50]);
    expect(exitSlices(150, 50, undefined, { ...limits, maxOrderQuantity: 40 })).toEqual([150]);
  });
});
