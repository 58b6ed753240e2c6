import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import { DAY_MS, istDayStart } from '../../domain/ist.ts';
import { FakeMarket, SBIN } from '../test-support/fake-market.ts';
import { OrderEngine } from './order-engine.ts';
import type { OrderParams } from './sim-order.ts';

/** Monday 5 January 2026, 09:30 IST. */
const T0 = Date.parse('2026-01-05T04:00:00Z');

const buy = (over: Partial<OrderParams> = {}): OrderParams => ({
  variety: 'regular',
  exchange: 'NSE',
  token: SBIN.token,
  transactionType: 'B',
  order: 'MKT',
  product: 'I',
  validity: 'DAY',
  quantity: 10,
  disclosedQty: 0,
  price: 0,
  triggerPrice: 0,
  bookLossPrice: 0,
  bookProfitPrice: 0,
  tags: 't',
  amo: false,
  ...over,
});

describe('OrderEngine.forgetBefore (a multi-day venue forgets what no day book lists)', () => {
  it('drops final orders and fills before the cutoff, keeps working and recent ones, and every later day book', () => {
    const clock = new VirtualClock(T0);
    const market = new FakeMarket();
    market.set(SBIN.token, 80_000, 100, { lower: 64_000, upper: 96_000 });
    const engine = new OrderEngine({ clock, market, hours: { isOpen: () => true } });
    const filled = engine.place(buy());
    // A limit far below the market rests, working, for days.
    const resting = engine.place(buy({ order: 'LMT', price: 70_000 }));
    clock.advanceBy(DAY_MS);
    const nextDay = engine.place(buy());
    clock.advanceBy(DAY_MS);
    const today = istDayStart(clock.now());
    const before = engine.dayOrders(today).map((o) => o.id);
    const fillsBefore = engine.dayFills(today);

    const gone = engine.forgetBefore(today - DAY_MS);

    expect(gone).toEqual([filled.id]);
    expect(engine.order(filled.id)).toBeUndefined();
    expect(engine.order(resting.id)?.status).toBe('OPEN');
    expect(engine.order(nextDay.id)?.status).toBe('COMPLETE');
    expect(engine.orders().map((o) => o.id)).toEqual([resting.id, nextDay.id]);
    expect(engine.fills().map((f) => f.orderId)).toEqual([nextDay.id]);
    expect(engine.fillCount).toBe(2);
    expect(engine.dayOrders(today).map((o) => o.id)).toEqual(before);
    expect(engine.dayFills(today)).toEqual(fillsBefore);
    expect(engine.dayOrders(today - DAY_MS).map((o) => o.id)).toEqual([resting.id, nextDay.id]);
  });
});
