import { describe, expect, it } from 'vitest';
import { type BarOrderTerms, barTouch } from './bar-fill.ts';

const buy = (order: BarOrderTerms['order'], price: number, triggerPrice = 0): BarOrderTerms => ({
  transactionType: 'B',
  order,
  price,
  triggerPrice,
});
const sell = (order: BarOrderTerms['order'], price: number, triggerPrice = 0): BarOrderTerms => ({
  ...buy(order, price, triggerPrice),
  transactionType: 'S',
});
const path = (from: number, to: number, gap = false) => ({ from, to, gap });

describe('barTouch (the bar fill model)', () => {
  it('fills a limit at its limit when the path runs through it, not at the point past it', () => {
    expect(barTouch(buy('LMT', 100), false, path(105, 95))).toEqual({
      triggered: false,
      price: 100,
    });
    expect(barTouch(sell('LMT', 100), false, path(95, 105))).toEqual({
      triggered: false,
      price: 100,
    });
    expect(barTouch(buy('LMT', 100), false, path(105, 101))).toEqual({
      triggered: false,
      price: undefined,
    });
    expect(barTouch(sell('LMT', 100), false, path(99, 95))).toEqual({
      triggered: false,
      price: undefined,
    });
  });

  it('fills at the open when a bar opens past the limit (a gap), however far past', () => {
    expect(barTouch(buy('LMT', 100), false, path(105, 90, true))).toEqual({
      triggered: false,
      price: 90,
    });
    expect(barTouch(sell('LMT', 100), false, path(95, 110, true))).toEqual({
      triggered: false,
      price: 110,
    });
    // A gap jumps: the limit between the two prices is not touched if the open is short of it.
    expect(barTouch(buy('LMT', 100), false, path(99, 101, true))).toEqual({
      triggered: false,
      price: undefined,
    });
  });

  it('triggers a stop at its trigger and fills a stop-market there; on a gap, at the open', () => {
    expect(barTouch(sell('SL-MKT', 0, 100), false, path(104, 96))).toEqual({
      triggered: true,
      price: 100,
    });
    expect(barTouch(buy('SL-MKT', 0, 100), false, path(96, 104))).toEqual({
      triggered: true,
      price: 100,
    });
    expect(barTouch(sell('SL-MKT', 0, 100), false, path(104, 90, true))).toEqual({
      triggered: true,
      price: 90,
    });
    expect(barTouch(sell('SL-MKT', 0, 100), false, path(104, 101))).toEqual({
      triggered: false,
      price: undefined,
    });
  });

  it('fills a stop-limit at the trigger when within its limit, else it rests as a limit', () => {
    expect(barTouch(sell('SL-LMT', 99, 100), false, path(104, 96))).toEqual({
      triggered: true,
      price: 100,
    });
    expect(barTouch(sell('SL-LMT', 99, 100), false, path(104, 95, true))).toEqual({
      triggered: true,
      price: undefined,
    });
    // Triggered already: a limit at 99 from now on.
    expect(barTouch(sell('SL-LMT', 99, 100), true, path(95, 99.5))).toEqual({
      triggered: true,
      price: 99,
    });
  });

  it('leaves market orders to the book', () => {
    expect(barTouch(buy('MKT', 0), false, path(100, 90))).toBeUndefined();
  });
});
