import { describe, expect, it } from 'vitest';
import type { PlaceIntent } from '../../domain/intents.ts';
import type { ShutdownReport } from '../../execution/run-shutdown.ts';
import type { TrackedOrder } from '../../execution/tracked-order.ts';
import { stoppedText } from './alert-texts.ts';

function working(intent: Partial<PlaceIntent>): ShutdownReport['orders'][number] {
  const order = {
    intentId: 'br/1',
    strategyId: 'br',
    quantity: 5,
    filledQuantity: 0,
    intent: { side: 'S', instrument: { symbol: 'SBIN-EQ' }, ...intent } as PlaceIntent,
    request: {} as TrackedOrder['request'],
  } as TrackedOrder;
  return { order } as unknown as ShutdownReport['orders'][number];
}

describe('stoppedText', () => {
  it('names the price and trigger each working order still works at (review 16b N4)', () => {
    const report = {
      policy: 'leave',
      positions: [],
      orders: [
        working({ orderType: 'SL-MKT', triggerPrice: 79_980 }),
        working({ orderType: 'SL-LMT', price: 79_950, triggerPrice: 79_980 }),
        working({ orderType: 'LMT', price: 81_000 }),
      ],
      unfinished: [],
      booksRead: true,
    } as unknown as ShutdownReport;
    expect(stoppedText('received SIGINT', report).split('\n').slice(2)).toEqual([
      '3 order(s) still working:',
      '  SELL 5 SBIN-EQ SL-MKT trigger ₹799.80 (br)',
      '  SELL 5 SBIN-EQ SL-LMT @ ₹799.50 trigger ₹799.80 (br)',
      '  SELL 5 SBIN-EQ LMT @ ₹810.00 (br)',
    ]);
  });
});
