import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { PlaceIntent } from '../domain/intents.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import { OrderEventLog } from './order-event-log.ts';

function capture(level: pino.Level = 'info') {
  const records: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      records.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { records, log: new OrderEventLog(pino({ level, base: null }, destination)) };
}

const intent: PlaceIntent = {
  kind: 'place',
  id: 'p1',
  instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
  side: 'B',
  quantity: 10,
  orderType: 'LMT',
  price: 79415,
  product: 'I',
  reason: 'cross',
};
const base = { strategyId: 'sma', intentId: 'p1', tag: 't1', at: 1 };

describe('OrderEventLog', () => {
  it('logs each event with the order it belongs to, the intent left out', () => {
    const { records, log } = capture();
    log.log({ ...base, type: 'OrderSubmitted', intent });
    log.log({ ...base, type: 'OrderAccepted', orderId: '9' });
    log.log({
      ...base,
      type: 'OrderFilled',
      orderId: '9',
      fillId: 'f',
      fillQuantity: 10,
      fillPrice: 79415,
      filledQuantity: 10,
      averagePrice: 79415,
      quantity: 10,
    });
    // After its end the order is forgotten: a late event names only the intent.
    log.log({ ...base, type: 'OrderCancelled', orderId: '9', filledQuantity: 10 });
    const order = {
      side: 'B',
      quantity: 10,
      symbol: 'SBIN-EQ',
      token: 3045,
      orderType: 'LMT',
      price: 79415,
      reason: 'cross',
    };
    expect(records.map((r) => r.msg)).toEqual([
      'OrderSubmitted',
      'OrderAccepted',
      'OrderFilled',
      'OrderCancelled',
    ]);
    expect(records[0]).toMatchObject({ level: 30, component: 'execution', strategy: 'sma', order });
    expect(records[0]?.event).not.toHaveProperty('intent');
    expect(records[2]).toMatchObject({ order, event: { type: 'OrderFilled', fillPrice: 79415 } });
    expect(records[3]).not.toHaveProperty('order');
  });

  it('logs rejections and denials as warnings, a denial with its own intent', () => {
    const { records, log } = capture('warn');
    log.log({ ...base, type: 'OrderSubmitted', intent });
    log.log({ ...base, type: 'OrderRejected', reason: 'no market data yet' });
    const denied: OrderEvent = {
      strategyId: 'sma',
      intentId: 'p2',
      at: 2,
      type: 'OrderDenied',
      intent: { ...intent, id: 'p2', side: 'S' },
      reason: 'risk',
    };
    log.log(denied);
    expect(records.map((r) => [r.level, r.msg])).toEqual([
      [40, 'OrderRejected'],
      [40, 'OrderDenied'],
    ]);
    expect(records[0]).toMatchObject({ order: { side: 'B', symbol: 'SBIN-EQ' } });
    expect(records[1]).toMatchObject({
      order: { side: 'S', symbol: 'SBIN-EQ' },
      event: { reason: 'risk' },
    });
  });

  it('says what the order is after a modify: a later line shows the new quantity and price', () => {
    const { records, log } = capture();
    log.log({ ...base, type: 'OrderSubmitted', intent });
    log.log({ ...base, type: 'OrderModified', orderId: '9', quantity: 5, price: 79000 });
    log.log({ ...base, type: 'OrderCancelled', orderId: '9', filledQuantity: 0 });
    expect(records.map((r) => (r.order as { quantity: number; price: number }).price)).toEqual([
      79415, 79000, 79000,
    ]);
    expect(records.at(-1)?.order).toMatchObject({ side: 'B', quantity: 5, price: 79000 });
  });
});
