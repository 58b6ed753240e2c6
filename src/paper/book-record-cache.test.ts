import pino from 'pino';
import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { FullQuote } from '../api/schemas/quote.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { toPlaceRequest } from '../execution/wire-order.ts';
import type { MarketQuote } from '../market-data/market-quote.ts';
import { PaperBroker } from './paper-broker.ts';

const quote: FullQuote = {
  token: 3045,
  avgPrice: 80_000,
  open: 80_000,
  high: 80_500,
  low: 79_500,
  close: 80_000,
  ltp: 80_000,
  ltq: 1,
  ltt: 0,
  time: 0,
  netChange: 0,
  netChangeIndicator: 0,
  lowerLimit: 72_000,
  upperLimit: 88_000,
  oi: 0,
  oiDayHigh: 0,
  oiDayLow: 0,
  totalBuyQty: 100,
  totalSellQty: 100,
  volume: 1_000,
  bids: [{ price: 79_995, quantity: 100, orders: 1 }],
  asks: [{ price: 80_005, quantity: 100, orders: 1 }],
};

describe('the paper broker’s books (BookRecordCache)', () => {
  it('hands out the same record while an order is unchanged, and a fresh one after a change', async () => {
    const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
    const full: MarketQuote<'full'> = {
      token: 3045,
      mode: 'full',
      quote,
      sourceTime: clock.now(),
      receivedAt: clock.now(),
    };
    const broker = new PaperBroker({
      clock,
      bus: { quote$: () => of(full) as never },
      hours: { isOpen: () => true },
      logger: pino({ level: 'silent' }),
    });
    const request = toPlaceRequest(
      {
        kind: 'place',
        id: 'dip',
        instrument: { exchange: 'NSE', token: '3045', symbol: 'SBIN-EQ' },
        side: 'B',
        quantity: 10,
        orderType: 'LMT',
        price: 79_000, // below the book: rests
        product: 'I',
      },
      'sma-1',
      false,
    );
    const { orderNo } = await broker.placeOrder('regular', request);
    const [first] = await broker.orderBook();
    clock.advanceBy(1_000);
    const [again] = await broker.orderBook();
    expect(again).toBe(first); // a resting order costs no rebuild per tracking poll
    expect(first?.orderStatus).toBe('OPEN');
    await broker.cancelOrder('regular', orderNo);
    const [after] = await broker.orderBook();
    expect(after).not.toBe(first);
    expect(after?.orderStatus).toBe('CANCELED');
    expect(await broker.tradeBook()).toEqual([]);
  });
});
