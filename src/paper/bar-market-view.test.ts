import { beforeEach, describe, expect, it } from 'vitest';
import type { FullQuote } from '../api/schemas/quote.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { OrderEngine } from '../sim/engine/order-engine.ts';
import type { OrderParams } from '../sim/engine/sim-order.ts';
import { BarMarketView } from './bar-market-view.ts';

const T0 = Date.parse('2026-11-20T09:15:00+05:30');
const TOKEN = 3045;

/** A synthesised quote: one deep level at `price`, `bar` its bar's start (the gap marker). */
function quote(price: number, bar: number): FullQuote {
  const level = [{ price, quantity: 1_000_000_000, orders: 1 }];
  return {
    token: TOKEN,
    bids: level,
    asks: level,
    avgPrice: price,
    open: price,
    high: price,
    low: price,
    close: price,
    ltp: price,
    ltq: 0,
    ltt: bar,
    time: bar,
    netChange: 0,
    netChangeIndicator: 0,
    oi: 0,
    oiDayHigh: 0,
    oiDayLow: 0,
    lowerLimit: 0,
    upperLimit: 0,
    totalBuyQty: 0,
    totalSellQty: 0,
    volume: 0,
  };
}

function params(over: Partial<OrderParams>): OrderParams {
  return {
    variety: 'regular',
    exchange: 'NSE',
    token: TOKEN,
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
    tags: '',
    amo: false,
    ...over,
  };
}

describe('BarMarketView with the order engine (bar fill model)', () => {
  let clock: VirtualClock;
  let view: BarMarketView;
  let engine: OrderEngine;
  /** A new synthesised quote and the price step the paper broker takes on it. */
  const move = (price: number, bar = 1): void => {
    clock.advanceBy(15_000);
    view.update(quote(price, bar));
    engine.onStep(clock.now());
  };

  beforeEach(() => {
    clock = new VirtualClock(T0);
    view = new BarMarketView(2);
    view.describe(TOKEN, { exchange: 'NSE', symbol: 'SBIN-EQ', lotSize: 1, tick: 5 });
    engine = new OrderEngine({ clock, market: view, hours: { isOpen: () => true } });
    view.update(quote(80_000, 1));
  });

  it('fills a resting buy limit at its limit when the path falls through it', () => {
    const order = engine.place(params({ order: 'LMT', price: 79_900 }));
    expect(order.status).toBe('OPEN');
    move(79_950);
    expect(order.status).toBe('OPEN');
    move(79_700); // 79 950 → 79 700 runs through 79 900
    expect(order.fills.map((f) => [f.price, f.quantity])).toEqual([[79_900, 10]]);
  });

  it('fills at the next bar’s open when it opens past the limit', () => {
    const order = engine.place(params({ order: 'LMT', price: 79_900 }));
    move(79_600, 2); // a new bar: the jump from 80 000 is a gap
    expect(order.fills.map((f) => f.price)).toEqual([79_600]);
  });

  it('triggers a sell stop at its trigger and fills there', () => {
    const order = engine.place(
      params({ transactionType: 'S', order: 'SL-MKT', triggerPrice: 79_800 }),
    );
    move(79_900);
    expect(order.status).toBe('OPEN');
    move(79_500);
    expect(order.fills.map((f) => f.price)).toEqual([79_800]);
  });

  it('fills market orders at the current synthesised price plus the slippage', () => {
    const order = engine.place(params({ order: 'MKT' }));
    expect(order.fills.map((f) => f.price)).toEqual([80_000 + 2 * 5]);
  });

  it('judges an order placed after a quote by the price now, not the path before it', () => {
    move(79_500); // 80 000 → 79 500 ran through 79 800, before the order existed
    const order = engine.place(params({ transactionType: 'S', order: 'LMT', price: 79_800 }));
    engine.onStep(clock.now()); // another step at the same instant: the same segment
    expect(order.status).toBe('OPEN');
    move(79_700); // 79 500 → 79 700: below the limit
    expect(order.status).toBe('OPEN');
    move(79_900);
    expect(order.fills.map((f) => f.price)).toEqual([79_800]);
  });
});
