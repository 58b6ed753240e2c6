import pino from 'pino';
import { BehaviorSubject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { RefusedError } from '../api/errors/refused-error.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { PlaceIntent } from '../domain/intents.ts';
import { DAY_MS } from '../domain/ist.ts';
import { toPlaceRequest } from '../execution/wire-order.ts';
import { PaperBroker } from './paper-broker.ts';
import { sbinFullQuote as full } from './testing/sbin-full-quote.ts';

/** Friday 20 November 2026, 10:00 IST; sessions 09:15–15:30 IST every day here. */
const T0 = Date.parse('2026-11-20T10:00:00+05:30');
const minuteOfDay = (at: number): number => ((at + 5.5 * 3_600_000) % DAY_MS) / 60_000;

const buy = (id: string): PlaceIntent => ({
  kind: 'place',
  id,
  instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
  side: 'B',
  quantity: 10,
  orderType: 'MKT',
  product: 'I',
});

describe('PaperBroker over several days', () => {
  it('forgets a final order once its day is more than a day behind, and keeps each day book whole', async () => {
    const clock = new VirtualClock(T0);
    const feed = new BehaviorSubject(full(80_000, clock.now()));
    const broker = new PaperBroker({
      clock,
      bus: { quote$: () => feed.asObservable() as never },
      hours: { isOpen: (at) => minuteOfDay(at) >= 555 && minuteOfDay(at) < 930 },
      logger: pino({ level: 'silent' }),
    });
    const friday = await broker.placeOrder('regular', toPlaceRequest(buy('a'), 't-a', false));
    clock.advanceBy(DAY_MS);
    feed.next(full(80_000, clock.now())); // Saturday: a step on a new day, Friday is kept
    expect((await broker.orderHistory(friday.orderNo))[0]?.orderStatus).toBe('COMPLETE');
    clock.advanceBy(DAY_MS);
    const sunday = await broker.placeOrder('regular', toPlaceRequest(buy('b'), 't-b', false));
    // A step on Sunday forgot Friday's order: no day book from Saturday on lists it.
    await expect(broker.orderHistory(friday.orderNo)).rejects.toBeInstanceOf(RefusedError);
    expect((await broker.orderBook()).map((o) => o.id)).toEqual([sunday.orderNo]);
    expect((await broker.tradeBook()).map((t) => t.id)).toEqual([sunday.orderNo]);
  });
});
