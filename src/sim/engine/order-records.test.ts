import { describe, expect, it } from 'vitest';
import type { SimInstrument } from '../market/sim-instrument.ts';
import { newSimOrder } from './new-sim-order.ts';
import { toHistoryRecord, toOrderBookRecord } from './order-records.ts';
import type { OrderParams, SimOrder } from './sim-order.ts';

const SBIN: SimInstrument = {
  token: 3045,
  symbol: 'SBIN-EQ',
  name: 'STATE BANK OF INDIA',
  exchange: 'NSE',
  kind: 'equity',
  tick: 5,
  lotSize: 1,
  pricePrecision: 2,
};

const PARAMS: OrderParams = {
  variety: 'regular',
  exchange: 'NSE',
  token: 3045,
  transactionType: 'B',
  order: 'LMT',
  product: 'I',
  validity: 'DAY',
  quantity: 100,
  disclosedQty: 0,
  price: 80_005,
  triggerPrice: 0,
  bookLossPrice: 0,
  bookProfitPrice: 0,
  tags: 'sma-1',
  amo: false,
};

/** 11:00:00 IST on Friday 20 November 2026. */
const AT = Date.UTC(2026, 10, 20, 5, 30);

/** An order partly filled at 800.05, as the engine leaves it after its first fill. */
function partlyFilled(): SimOrder {
  const order = newSimOrder('9000000001', SBIN, PARAMS, AT, undefined);
  order.exchangeOrderId = '1100009000000001';
  order.status = 'OPEN';
  order.filled = 40;
  order.fillValue = 40 * 80_005;
  order.updatedAt = AT + 2_000;
  order.exchangeUpdatedAt = AT + 2_000;
  const base = {
    at: AT,
    params: order.params,
    rejectReason: '',
    cancelQuantity: 0,
  };
  order.history.push(
    {
      ...base,
      reportType: 'PendingNew',
      status: 'PENDING',
      filled: 0,
      averagePrice: undefined,
      exchangeOrderId: '',
    },
    {
      ...base,
      reportType: 'New',
      status: 'OPEN',
      filled: 0,
      averagePrice: undefined,
      exchangeOrderId: order.exchangeOrderId,
    },
    {
      ...base,
      at: AT + 2_000,
      reportType: 'Fill',
      status: 'OPEN',
      filled: 40,
      averagePrice: 80_005,
      exchangeOrderId: order.exchangeOrderId,
    },
  );
  return order;
}

// The wire records keep their fields and the service's key order (pinned here because
// the builders are tuned for allocation: issue 13).
describe('order records', () => {
  it('builds the order-book record with every field, in the wire order', () => {
    const record = toOrderBookRecord(partlyFilled());
    expect(JSON.stringify(record)).toBe(
      JSON.stringify({
        status: 'Ok',
        exchange: 'NSE',
        symbol: 'SBIN-EQ',
        id: '9000000001',
        price: '800.05',
        quantity: '100',
        product: 'I',
        orderStatus: 'OPEN',
        transactionType: 'B',
        order: 'LMT',
        fillShares: '40',
        averagePrice: '800.05',
        rejectReason: '',
        exchangeOrderID: '1100009000000001',
        cancelQuantity: '0',
        disclosedQuantity: '0',
        orderTriggerPrice: '',
        retention: 'DAY',
        bookProfitPrice: '',
        bookLossPrice: '',
        trailingPrice: '',
        amo: 'No',
        pricePrecision: '2',
        tickSize: '0.05',
        lotSize: '1',
        token: '3045',
        timeStamp: '11:00:02 20-11-2026',
        orderTime: String(AT / 1_000),
        exchangeUpdateTime: '20-11-2026 11:00:02',
        userID: 'SIM0001',
        accountID: 'SIM0001',
        marketProtection: '',
        tags: 'sma-1',
        snoOrderDirection: '',
        snoOrderID: '',
        priceFactor: '1',
        multiplier: '1',
        displayName: 'SBIN-EQ',
        requiredQuantity: '',
        requiredPrice: '',
        requiredTriggerPrice: '',
        requiredBookLossPrice: '',
        requiredOriginalQuantity: '',
        requiredOriginalPrice: '',
        originalTriggerPrice: '',
        originalBookLossPrice: '',
      }),
    );
  });

  it('leaves the exchange update time empty before the exchange took the order', () => {
    const order = newSimOrder('9000000002', SBIN, PARAMS, AT, undefined);
    order.history.push({
      reportType: 'PendingNew',
      at: AT,
      status: 'PENDING',
      params: order.params,
      filled: 0,
      averagePrice: undefined,
      rejectReason: '',
      cancelQuantity: 0,
      exchangeOrderId: '',
    });
    expect(toOrderBookRecord(order).exchangeUpdateTime).toBe('');
  });

  it('builds a history record with the event fields after the common ones', () => {
    const order = partlyFilled();
    const fill = order.history[2];
    if (fill === undefined) throw new Error('no fill event');
    const record = toHistoryRecord(order, fill);
    expect(Object.keys(record).slice(-5)).toEqual([
      'exchangeUpdateTime',
      'reportType',
      'remarks',
      'requestTime',
      'errorMessage',
    ]);
    expect(record).toMatchObject({
      reportType: 'Fill',
      remarks: 'sma-1',
      requestTime: '11:00:02 20-11-2026',
      errorMessage: '',
      fillShares: '40',
      exchangeUpdateTime: '20-11-2026 11:00:02',
    });
  });
});
