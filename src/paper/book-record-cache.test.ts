import pino from 'pino';
import { of } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { toPlaceRequest } from '../execution/wire-order.ts';
import { PaperBroker } from './paper-broker.ts';
import { sbinFullQuote } from './testing/sbin-full-quote.ts';

describe('the paper broker’s books (BookRecordCache)', () => {
  it('hands out the same record while an order is unchanged, and a fresh one after a change', async () => {
    const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
    const broker = new PaperBroker({
      clock,
      bus: { quote$: () => of(sbinFullQuote(80_000, clock.now())) as never },
      hours: { isOpen: () => true },
      logger: pino({ level: 'silent' }),
    });
    const request = toPlaceRequest(
      {
        kind: 'place',
        id: 'dip',
        instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
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
