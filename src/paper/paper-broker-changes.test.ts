import pino from 'pino';
import { BehaviorSubject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { FullQuote } from '../api/schemas/quote.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { PlaceIntent } from '../domain/intents.ts';
import { toPlaceRequest } from '../execution/wire-order.ts';
import type { MarketQuote } from '../market-data/market-quote.ts';
import { PaperBroker } from './paper-broker.ts';

const OPEN_AT = Date.parse('2026-11-20T09:15:00+05:30');
const CLOSE_AT = Date.parse('2026-11-20T15:30:00+05:30');

/** A full quote of SBIN with one level a side around `mid` (paise). */
function full(mid: number, at: number): MarketQuote<'full'> {
  const quote: FullQuote = {
    token: 3045,
    avgPrice: mid,
    open: mid,
    high: mid,
    low: mid,
    close: mid,
    ltp: mid,
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
    bids: [{ price: mid - 5, quantity: 100, orders: 1 }],
    asks: [{ price: mid + 5, quantity: 100, orders: 1 }],
  };
  return { token: 3045, mode: 'full', quote, sourceTime: at, receivedAt: at };
}

const buyAt = (price: number): PlaceIntent => ({
  kind: 'place',
  id: `buy-${price}`,
  instrument: { exchange: 'NSE', token: '3045', symbol: 'SBIN-EQ' },
  side: 'B',
  quantity: 10,
  orderType: 'LMT',
  price,
  product: 'I',
});

/** A paper broker over a scripted SBIN feed, open 09:15–15:30 IST, counting announcements. */
function venue(announceChanges: boolean) {
  const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
  const feed = new BehaviorSubject(full(80_000, clock.now()));
  const broker = new PaperBroker({
    clock,
    bus: { quote$: () => feed.asObservable() as never },
    hours: { isOpen: (at) => at >= OPEN_AT && at < CLOSE_AT },
    logger: pino({ level: 'silent' }),
    announceChanges,
  });
  let changes = 0;
  broker.onBooksChanged?.(() => {
    changes += 1;
  });
  return { clock, feed, broker, changes: () => changes };
}

describe('PaperBroker.onBooksChanged', () => {
  it('is offered only when asked for (a polled venue stays polled)', () => {
    expect(venue(false).broker.onBooksChanged).toBeUndefined();
    expect(venue(true).broker.onBooksChanged).toBeTypeOf('function');
  });

  it('announces placements, fills, cancels and the expiry at the close; not quiet quotes or reads', async () => {
    const { clock, feed, broker, changes } = venue(true);
    const resting = await broker.placeOrder('regular', toPlaceRequest(buyAt(79_500), 't-1', false));
    expect(changes()).toBe(1); // accepted, resting
    const other = await broker.placeOrder('regular', toPlaceRequest(buyAt(79_000), 't-2', false));
    expect(changes()).toBe(2);

    clock.advanceBy(5_000);
    feed.next(full(79_900, clock.now())); // asks at 799.05: neither buy fills
    await broker.orderBook();
    await broker.tradeBook();
    await broker.orderHistory(resting.orderNo);
    expect(changes()).toBe(2);

    clock.advanceBy(5_000);
    feed.next(full(79_400, clock.now())); // asks at 794.05: the 795 buy fills
    expect(changes()).toBe(3);
    expect((await broker.tradeBook()).length).toBe(1);

    await broker.cancelOrder('regular', other.orderNo);
    expect(changes()).toBe(4);
    // A refused operation is announced too (the tracker's next tick costs one poll).
    await expect(broker.cancelOrder('regular', other.orderNo)).rejects.toThrow(/refused/);
    expect(changes()).toBe(5);

    const late = await broker.placeOrder('regular', toPlaceRequest(buyAt(78_000), 't-3', false));
    expect(changes()).toBe(6);
    clock.advanceTo(CLOSE_AT + 60_000);
    feed.next(full(79_400, clock.now())); // the first quote after the close: DAY orders expire
    expect(changes()).toBe(7);
    const book = await broker.orderBook();
    expect(book.find((o) => o.id === late.orderNo)?.orderStatus).toBe('CANCELED');
  });
});
