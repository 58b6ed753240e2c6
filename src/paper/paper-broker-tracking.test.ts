import pino from 'pino';
import { BehaviorSubject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { PlaceIntent } from '../domain/intents.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import { OrderTracker } from '../execution/order-tracker.ts';
import { trackedOrder } from '../execution/tracked-order.ts';
import { toPlaceRequest } from '../execution/wire-order.ts';
import { PaperBroker } from './paper-broker.ts';
import { sbinFullQuote as full } from './testing/sbin-full-quote.ts';

const START = Date.parse('2026-11-20T10:00:00+05:30');

const intent = (id: string, price: number): PlaceIntent => ({
  kind: 'place',
  id,
  instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
  side: 'B',
  quantity: 10,
  orderType: 'LMT',
  price,
  product: 'I',
});

/**
 * The same script over a paper venue that announces its changes or not: orders placed
 * and cancelled at odd instants, quotes every 2.5 s for ten minutes, one of them filling
 * a resting order. Returns the tracker's events and how often it read the order book.
 */
async function run(announceChanges: boolean) {
  const clock = new VirtualClock(START);
  const feed = new BehaviorSubject(full(80_000, START));
  const broker = new PaperBroker({
    clock,
    bus: { quote$: () => feed.asObservable() as never },
    hours: { isOpen: () => true },
    logger: pino({ level: 'silent' }),
    announceChanges,
  });
  let reads = 0;
  const orderBook = broker.orderBook.bind(broker);
  broker.orderBook = () => {
    reads += 1;
    return orderBook();
  };
  const events: Array<[number, string, string]> = [];
  const tracker = new OrderTracker({
    broker,
    clock,
    logger: pino({ level: 'silent' }),
    intervalMs: 1_000,
    unknownGraceMs: 10_000,
    sink: { emit: (e: OrderEvent) => events.push([e.at, e.type, e.intentId]), persist: () => {} },
    onFollowUp: async () => {},
    afterPoll: () => {},
    isPaused: () => false,
  });
  const place = async (id: string, price: number): Promise<string> => {
    const request = toPlaceRequest(intent(id, price), `t-${id}`, false);
    const order = trackedOrder({
      strategyId: 's1',
      intentId: id,
      tag: `t-${id}`,
      intent: intent(id, price),
      request,
      placedAt: clock.now(),
    });
    tracker.track(order);
    const { orderNo } = await broker.placeOrder('regular', request);
    order.orderId = orderNo;
    order.status = 'pending';
    return orderNo;
  };
  const at = (ms: number, work: () => void): void => {
    clock.schedule(work, ms);
  };
  tracker.start();
  // Quotes every 2.5 s (one of them fills `dip`), driven as ReplayMarket.play does: to
  // the next timer or quote, the timers of an instant first, then its quote, then a turn.
  const quotes: number[] = [];
  for (let t = 2_500; t <= 600_000; t += 2_500) quotes.push(START + t);
  let resting = '';
  at(12_345, () => {
    void place('dip', 79_500).then((id) => {
      resting = id;
    });
  });
  at(30_700, () => void place('deep', 79_000));
  at(401_001, () => void broker.cancelOrder('regular', resting).catch(() => undefined));
  for (;;) {
    await new Promise((resolve) => setImmediate(resolve));
    const next = Math.min(clock.nextDue() ?? Number.POSITIVE_INFINITY, quotes[0] ?? Infinity);
    if (next > START + 600_000) break;
    clock.advanceTo(next);
    if (quotes[0] === next) {
      quotes.shift();
      feed.next(full(next === START + 200_000 ? 79_400 : 80_000, next));
    }
  }
  await tracker.stop();
  return { events, reads };
}

describe('OrderTracker over a paper venue that announces its changes', () => {
  it('sees every change at the same virtual instant as polling every second, with far fewer reads', async () => {
    const polled = await run(false);
    const told = await run(true);
    expect(polled.events.map(([, type]) => type)).toEqual([
      'OrderAccepted',
      'OrderOpened',
      'OrderAccepted',
      'OrderOpened',
      'OrderFilled',
    ]);
    expect(told.events).toEqual(polled.events);
    expect(polled.reads).toBeGreaterThan(500);
    expect(told.reads).toBeLessThan(20);
  });
});
