import { beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import { SimError } from '../sim-error.ts';
import { FakeMarket, NIFTY_CE, SBIN } from '../test-support/fake-market.ts';
import { OrderEngine } from './order-engine.ts';
import { toHistory } from './order-records.ts';
import type { OrderParams } from './sim-order.ts';

const T0 = Date.parse('2026-01-05T04:00:00Z');

function params(over: Partial<OrderParams> = {}): OrderParams {
  return {
    variety: 'regular',
    exchange: 'NSE',
    token: SBIN.token,
    transactionType: 'B',
    order: 'MKT',
    product: 'I',
    validity: 'DAY',
    quantity: 100,
    disclosedQty: 0,
    price: 0,
    triggerPrice: 0,
    bookLossPrice: 0,
    bookProfitPrice: 0,
    tags: 'tag-1',
    amo: false,
    ...over,
  };
}

describe('OrderEngine', () => {
  let clock: VirtualClock;
  let market: FakeMarket;
  let open: boolean;
  let engine: OrderEngine;
  const step = (): void => {
    clock.advanceBy(1_000);
    engine.onStep(clock.now());
  };

  beforeEach(() => {
    clock = new VirtualClock(T0);
    market = new FakeMarket();
    market.set(SBIN.token, 80_000, 100, { lower: 64_000, upper: 96_000 });
    market.set(NIFTY_CE.token, 10_000, 10);
    open = true;
    engine = new OrderEngine({ clock, market, hours: { isOpen: () => open } });
  });

  it('walks a market order through PendingNew, NewAck, New and fills against the depth', () => {
    const order = engine.place(params({ quantity: 250 }));
    expect(order.status).toBe('COMPLETE');
    const history = toHistory(order);
    expect(history.map((h) => [h.reportType, h.orderStatus, h.fillShares, h.averagePrice])).toEqual(
      [
        ['Fill', 'COMPLETE', '250', '800.09'],
        ['Fill', 'OPEN', '200', '800.08'],
        ['Fill', 'OPEN', '100', '800.05'],
        ['New', 'OPEN', '', ''],
        ['NewAck', 'PENDING', '', ''],
        ['PendingNew', 'PENDING', '', ''],
      ],
    );
    expect(history.at(-1)?.exchangeOrderID).toBe('');
    expect(history[3]?.exchangeOrderID).not.toBe('');
    expect(engine.fills().map((f) => [f.price, f.quantity, f.filled])).toEqual([
      [80_005, 100, 100],
      [80_010, 100, 200],
      [80_015, 50, 250],
    ]);
  });

  it('keeps a DAY market order open when the depth runs out and finishes it at the next step', () => {
    const order = engine.place(params({ quantity: 700 }));
    expect(order.status).toBe('OPEN');
    expect(order.filled).toBe(500);
    market.set(SBIN.token, 80_000);
    step();
    expect(order.status).toBe('COMPLETE');
  });

  it('cancels the unfilled rest of an IOC order', () => {
    const order = engine.place(params({ quantity: 700, validity: 'IOC' }));
    expect(order.status).toBe('CANCELED');
    expect(order.filled).toBe(500);
    expect(order.cancelQuantity).toBe(200);
    expect(toHistory(order)[0]?.reportType).toBe('Canceled');
  });

  it('rests a limit order until the market crosses it', () => {
    const order = engine.place(params({ order: 'LMT', price: 79_900 }));
    expect(order.status).toBe('OPEN');
    step();
    expect(order.filled).toBe(0);
    market.set(SBIN.token, 79_895);
    step();
    expect(order.status).toBe('COMPLETE');
    expect(order.fills[0]?.price).toBe(79_900);
  });

  it('triggers SL-MKT and SL-LMT orders', () => {
    const stop = engine.place(
      params({ transactionType: 'S', order: 'SL-MKT', triggerPrice: 79_500 }),
    );
    const stopLimit = engine.place(
      params({ order: 'SL-LMT', triggerPrice: 80_500, price: 80_510, quantity: 300 }),
    );
    expect([stop.status, stopLimit.status]).toEqual(['OPEN', 'OPEN']);
    market.set(SBIN.token, 79_500);
    step();
    expect(stop.status).toBe('COMPLETE');
    expect(stop.fills[0]?.price).toBe(79_495);
    market.set(SBIN.token, 80_500);
    step();
    // Only the two ask levels at or under the limit fill.
    expect(stopLimit.filled).toBe(200);
    expect(stopLimit.status).toBe('OPEN');
  });

  it('rejects stops on the wrong side of the market', () => {
    const order = engine.place(params({ order: 'SL-MKT', triggerPrice: 79_000 }));
    expect(order.status).toBe('REJECTED');
    expect(order.rejectReason).toMatch(/above the last traded price/);
  });

  it('places the stop leg of a cover order and fires it', () => {
    const main = engine.place(params({ variety: 'cover', bookLossPrice: 79_000 }));
    expect(main.status).toBe('COMPLETE');
    const leg = engine.order(main.childId ?? '');
    expect(leg?.params).toMatchObject({
      transactionType: 'S',
      order: 'SL-MKT',
      triggerPrice: 79_000,
    });
    expect(leg?.status).toBe('OPEN');
    expect(leg?.parentId).toBe(main.id);
    market.set(SBIN.token, 78_990);
    step();
    expect(leg?.status).toBe('COMPLETE');
  });

  it('rejects a cover order whose stop is on the wrong side', () => {
    const main = engine.place(params({ variety: 'cover', bookLossPrice: 81_000 }));
    expect(main.status).toBe('REJECTED');
  });

  it('modifies an open order, matching it again, and refuses after 25 changes', () => {
    const order = engine.place(params({ order: 'LMT', price: 79_000 }));
    for (let i = 0; i < 24; i++)
      engine.modify(order.id, 'regular', { ...order.params, price: 79_000 - 5 * (i + 1) });
    expect(order.modifications).toBe(24);
    engine.modify(order.id, 'regular', { ...order.params, price: 80_005 });
    expect(order.status).toBe('COMPLETE');
    expect(toHistory(order).filter((h) => h.reportType === 'Replaced')).toHaveLength(25);

    const other = engine.place(params({ order: 'LMT', price: 79_000 }));
    for (let i = 0; i < 25; i++) engine.modify(other.id, 'regular', { ...other.params });
    expect(() => engine.modify(other.id, 'regular', { ...other.params })).toThrow(
      /25 modifications/,
    );
  });

  it('refuses to modify or cancel finished and unknown orders', () => {
    const done = engine.place(params());
    const err = (fn: () => unknown): SimError => {
      try {
        fn();
      } catch (e) {
        if (e instanceof SimError) return e;
      }
      throw new Error('expected a SimError');
    };
    expect(err(() => engine.cancel(done.id, 'regular')).status).toBe(400);
    expect(err(() => engine.modify(done.id, 'regular', done.params)).status).toBe(400);
    expect(err(() => engine.cancel('999', 'regular')).status).toBe(404);
    const resting = engine.place(params({ order: 'LMT', price: 79_000 }));
    expect(
      err(() => engine.modify(resting.id, 'regular', { ...resting.params, price: 79_001 })).message,
    ).toMatch(/tick/);
    // The path's variety is not checked against the order's (pytiqs always sends regular).
    expect(engine.cancel(resting.id, 'cover').status).toBe('CANCELED');
  });

  it('cancels an open order', () => {
    const order = engine.place(params({ order: 'LMT', price: 79_000 }));
    engine.cancel(order.id, 'regular');
    expect(order.status).toBe('CANCELED');
    expect(order.cancelQuantity).toBe(100);
  });

  it.each([
    ['band', params({ order: 'LMT', price: 97_000 }), /outside the price band/],
    ['tick', params({ order: 'LMT', price: 80_002 }), /tick size/],
    ['lot', params({ token: NIFTY_CE.token, exchange: 'NFO', quantity: 100 }), /lot size 65/],
    ['missing price', params({ order: 'LMT', price: 0 }), /Price is required/],
  ])('rejects on %s', (_name, p, reason) => {
    const order = engine.place(p);
    expect(order.status).toBe('REJECTED');
    expect(order.rejectReason).toMatch(reason);
    expect(toHistory(order).map((h) => h.reportType)).toEqual(['Rejected', 'PendingNew']);
  });

  it('rejects regular orders while closed; AMO orders wait for the open', () => {
    open = false;
    expect(engine.place(params()).rejectReason).toMatch(/Market is closed/);
    const amo = engine.place(params({ amo: true }));
    expect(amo.status).toBe('PENDING');
    engine.cancel(engine.place(params({ amo: true })).id, 'regular');
    open = true;
    engine.onOpen(clock.now());
    step();
    expect(amo.status).toBe('COMPLETE');
    expect(
      toHistory(amo)
        .map((h) => h.reportType)
        .reverse(),
    ).toEqual(['PendingNew', 'NewAck', 'New', 'Fill']);
  });

  it('expires open DAY orders at the close', () => {
    const order = engine.place(params({ order: 'LMT', price: 79_000 }));
    engine.onClose(clock.now());
    expect(order.status).toBe('CANCELED');
    expect(order.rejectReason).toMatch(/Expired/);
  });

  it('fills options in whole lots', () => {
    const order = engine.place(
      params({ token: NIFTY_CE.token, exchange: 'NFO', quantity: 130, product: 'M' }),
    );
    expect(order.status).toBe('COMPLETE');
    expect(order.fills.every((f) => f.quantity % 65 === 0)).toBe(true);
  });
});
