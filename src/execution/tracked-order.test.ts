import { describe, expect, it } from 'vitest';
import type { PlaceOrderRequest } from '../api/schemas/order-requests.ts';
import type { PlaceIntent } from '../domain/intents.ts';
import { trackedOrder } from './tracked-order.ts';

const intent = {
  kind: 'place',
  id: 'e1',
  instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
  side: 'B',
  quantity: 100,
  orderType: 'MKT',
  product: 'I',
} as PlaceIntent;
const request = { exchange: 'NSE', token: '3045', quantity: '100' } as PlaceOrderRequest;

// The journal stores orders as JSON: the builder (tuned for allocation, issue 13) keeps
// the fields and their order as they were.
describe('trackedOrder', () => {
  it('starts with nothing filled or seen, in the journal’s key order', () => {
    const order = trackedOrder({
      strategyId: 'sma',
      intentId: 'e1',
      tag: 't1',
      intent,
      request,
      placedAt: 1_000,
    });
    expect(Object.keys(order)).toEqual([
      'strategyId',
      'intentId',
      'tag',
      'intent',
      'request',
      'placedAt',
      'variety',
      'status',
      'quantity',
      'filledQuantity',
      'fills',
      'replacements',
      'modifications',
      'acceptedSeen',
      'openedSeen',
    ]);
    expect(order).toMatchObject({
      variety: 'regular',
      status: 'submitting',
      quantity: 100,
      filledQuantity: 0,
      replacements: 0,
      modifications: 0,
      acceptedSeen: false,
      openedSeen: false,
    });
    expect(order.fills.size).toBe(0);
  });

  it('takes the given variety, id, status, quantity and system flag', () => {
    const order = trackedOrder({
      strategyId: 'sma',
      intentId: 'e1/stop',
      tag: 't1/SL',
      variety: 'cover',
      intent,
      request,
      orderId: '9000000002',
      status: 'pending',
      quantity: 40,
      placedAt: 2_000,
      system: true,
    });
    expect(Object.keys(order)).toEqual([
      'strategyId',
      'intentId',
      'tag',
      'intent',
      'request',
      'placedAt',
      'variety',
      'orderId',
      'status',
      'quantity',
      'filledQuantity',
      'fills',
      'replacements',
      'modifications',
      'acceptedSeen',
      'openedSeen',
      'system',
    ]);
    expect(order).toMatchObject({
      variety: 'cover',
      orderId: '9000000002',
      status: 'pending',
      quantity: 40,
      system: true,
    });
  });

  it('gives every order its own fill set', () => {
    const init = { strategyId: 'sma', intentId: 'e1', tag: 't1', intent, request, placedAt: 1 };
    expect(trackedOrder(init).fills).not.toBe(trackedOrder(init).fills);
  });
});
