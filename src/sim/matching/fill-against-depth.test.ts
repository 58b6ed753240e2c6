import { describe, expect, it } from 'vitest';
import { fillAgainstDepth, isStopTriggered } from './fill-against-depth.ts';

const asks = [
  { orders: 2, price: 80105, quantity: 10 },
  { orders: 3, price: 80110, quantity: 50 },
  { orders: 1, price: 80115, quantity: 5 },
  { orders: 0, price: 0, quantity: 0 },
  { orders: 0, price: 0, quantity: 0 },
];

describe('fillAgainstDepth', () => {
  it('walks the levels best first, one fill per level, partially on the last', () => {
    const r = fillAgainstDepth('B', asks, 30);
    expect(r.fills).toEqual([
      { price: 80105, quantity: 10 },
      { price: 80110, quantity: 20 },
    ]);
    expect(r.remaining).toBe(0);
    expect(r.levels[0]).toEqual({ orders: 2, price: 80110, quantity: 30 });
    expect(r.levels.at(-1)).toEqual({ orders: 0, price: 0, quantity: 0 });
    expect(asks[0]?.quantity).toBe(10);
  });

  it('leaves the remainder when the depth runs out', () => {
    const r = fillAgainstDepth('B', asks, 100);
    expect(r.fills.map((f) => f.quantity)).toEqual([10, 50, 5]);
    expect(r.remaining).toBe(35);
    expect(r.levels.every((l) => l.quantity === 0)).toBe(true);
  });

  it('stops at the limit price', () => {
    expect(fillAgainstDepth('B', asks, 100, 80110).fills).toHaveLength(2);
    expect(fillAgainstDepth('B', asks, 100, 80100).fills).toHaveLength(0);
    const bids = [{ orders: 1, price: 100, quantity: 5 }];
    expect(fillAgainstDepth('S', bids, 5, 105).fills).toHaveLength(0);
    expect(fillAgainstDepth('S', bids, 5, 95).fills).toEqual([{ price: 100, quantity: 5 }]);
  });

  it('takes whole lots only', () => {
    const levels = [
      { orders: 1, price: 500, quantity: 100 },
      { orders: 1, price: 505, quantity: 130 },
    ];
    const r = fillAgainstDepth('B', levels, 195, undefined, 65);
    expect(r.fills).toEqual([
      { price: 500, quantity: 65 },
      { price: 505, quantity: 130 },
    ]);
  });

  it('triggers stops when the price reaches them', () => {
    expect(isStopTriggered('B', 100, 100)).toBe(true);
    expect(isStopTriggered('B', 100, 99)).toBe(false);
    expect(isStopTriggered('S', 100, 100)).toBe(true);
    expect(isStopTriggered('S', 100, 101)).toBe(false);
  });
});
