import pino from 'pino';
import { BehaviorSubject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { PlaceIntent } from '../domain/intents.ts';
import { toPlaceRequest } from '../execution/wire-order.ts';
import { PaperBroker } from './paper-broker.ts';
import { sbinFullQuote as full } from './testing/sbin-full-quote.ts';

const OPEN_AT = Date.parse('2026-11-20T09:15:00+05:30');
const CLOSE_AT = Date.parse('2026-11-20T15:30:00+05:30');

const buyAt = (price: number): PlaceIntent => ({
  kind: 'place',
  id: `buy-${price}`,
  instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
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
