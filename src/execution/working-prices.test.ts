import { describe, expect, it } from 'vitest';
import type { PlaceIntent } from '../domain/intents.ts';
import type { TrackedOrder } from './tracked-order.ts';
import { workingPrices } from './working-prices.ts';

function order(intent: Partial<PlaceIntent>, over: Partial<TrackedOrder> = {}): TrackedOrder {
  return {
    intentId: 'p1',
    intent: { orderType: 'LMT', ...intent } as PlaceIntent,
    request: {} as TrackedOrder['request'],
    ...over,
  } as TrackedOrder;
}

describe('workingPrices', () => {
  it('follows a modified stop: the last request’s trigger, not the intent’s', () => {
    const trailed = order(
      { orderType: 'SL-MKT', triggerPrice: 140_075 },
      { request: { triggerPrice: '1397.85' } as TrackedOrder['request'] },
    );
    expect(workingPrices(trailed)).toEqual({ trigger: 139_785 });
    expect(
      workingPrices(order({ orderType: 'SL-LMT', price: 78_950, triggerPrice: 79_000 })),
    ).toEqual({
      price: 78_950,
      trigger: 79_000,
    });
  });

  it('gives a limit the book’s price, a market order none (a book price of 0 is none)', () => {
    expect(workingPrices(order({ price: 80_000 }, { bookPrice: 80_100 }))).toEqual({
      price: 80_100,
    });
    expect(workingPrices(order({ orderType: 'MKT' }, { bookPrice: 0 }))).toEqual({});
  });

  it('shows a cover order’s stop leg at its stop-loss price', () => {
    expect(
      workingPrices(order({ orderType: 'MKT', bookLossPrice: 78_000 }, { intentId: 'c1/stop' })),
    ).toEqual({ trigger: 78_000 });
  });
});
