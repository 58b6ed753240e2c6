import { describe, expect, it } from 'vitest';
import { bracketIntent } from '../paper/testing/paper-bracket-venue.ts';
import { openOrdersOf } from './open-orders.ts';

describe('openOrdersOf', () => {
  it('lists a bracket deferred whole as its entry, so a strategy does not send it twice', () => {
    const bracket = bracketIntent('b1', { entry: { orderType: 'LMT', price: 80_500 } });
    expect(openOrdersOf([], [bracket], 's1', 3045)).toEqual([
      {
        intentId: 'b1',
        token: 3045,
        symbol: 'SBIN-EQ',
        side: 'B',
        quantity: 10,
        filledQuantity: 0,
        orderType: 'LMT',
        product: 'I',
        price: 80_500,
        status: 'deferred',
        system: false,
      },
    ]);
    expect(openOrdersOf([], [bracket], 's2')).toEqual([]);
    expect(openOrdersOf([], [bracket], 's1', 1)).toEqual([]);
  });
});
