import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { OrderHistoryRecord, TradeBookRecord } from '../api/schemas/order-records.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import type { Broker } from './broker.ts';
import { OrderTracker } from './order-tracker.ts';
import { type TrackedOrder, trackedOrder } from './tracked-order.ts';

const order = (): TrackedOrder => ({
  ...trackedOrder({
    strategyId: 's1',
    intentId: 'amo-1',
    tag: 's1-x-1',
    intent: {
      kind: 'place',
      id: 'amo-1',
      instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
      side: 'B',
      quantity: 10,
      orderType: 'LMT',
      price: 80_000,
      product: 'C',
    },
    request: {} as TrackedOrder['request'],
    orderId: '1000000007',
    status: 'pending',
    placedAt: 0,
  }),
  acceptedSeen: true,
});

/** A tracker over `broker` whose events land in `events`; no journal, no timers. */
function trackerOn(broker: Broker, events: OrderEvent[]): OrderTracker {
  return new OrderTracker({
    broker,
    clock: new VirtualClock(0),
    logger: pino({ level: 'silent' }),
    intervalMs: 1_000,
    unknownGraceMs: 5_000,
    sink: { emit: (e) => events.push(e), persist: () => {} },
    onFollowUp: async () => {},
    afterPoll: () => {},
    isPaused: () => false,
  });
}

describe('OrderTracker', () => {
  it('reads an active order missing from the day book from its history', async () => {
    const history = {
      orderStatus: 'COMPLETE',
      quantity: '10',
      price: '800.00',
      fillShares: '10',
      rejectReason: '',
    };
    const trade = {
      id: '1000000007',
      fillID: 'f9',
      fillQuantity: '10',
      fillPrice: '800.00',
      averagePrice: '800.00',
      fillShares: '10',
    };
    const asked: string[] = [];
    const broker = {
      orderBook: async () => [],
      tradeBook: async () => [trade as TradeBookRecord],
      orderHistory: async (id: string) => {
        asked.push(id);
        return [history as OrderHistoryRecord];
      },
    } as unknown as Broker;
    const events: OrderEvent[] = [];
    const tracked = order();
    const tracker = trackerOn(broker, events);
    tracker.track(tracked);
    await tracker.poll();
    expect(asked).toEqual(['1000000007']);
    expect(events.map((e) => e.type)).toEqual(['OrderOpened', 'OrderFilled']);
    expect(tracked.status).toBe('complete');
    await tracker.poll();
    expect(asked).toHaveLength(1);
  });

  it('does not close an order the book shows cancelled until its fills are booked', async () => {
    const cancelled = {
      id: '1000000007',
      tags: 's1-x-1',
      orderStatus: 'CANCELED',
      quantity: '10',
      price: '800.00',
      fillShares: '5',
      rejectReason: '',
      snoOrderDirection: '',
      snoOrderID: '',
    };
    const fill = {
      id: '1000000007',
      fillID: 'f1',
      fillQuantity: '5',
      fillPrice: '800.00',
      averagePrice: '800.00',
      fillShares: '5',
    };
    let trades: TradeBookRecord[] = [];
    const broker = {
      orderBook: async () => [cancelled],
      tradeBook: async () => trades,
      orderHistory: async () => [],
    } as unknown as Broker;
    const events: OrderEvent[] = [];
    const tracked = { ...order(), status: 'open' as const, openedSeen: true };
    const tracker = trackerOn(broker, events);
    tracker.track(tracked);
    await tracker.poll(); // the trade book lags: no fill yet
    expect(tracked.status).toBe('open');
    expect(events.map((e) => e.type)).toEqual([]);
    trades = [fill as TradeBookRecord];
    await tracker.poll();
    expect(events.map((e) => e.type)).toEqual(['OrderPartiallyFilled', 'OrderCancelled']);
    expect(tracked).toMatchObject({ status: 'cancelled', filledQuantity: 5 });
  });

  it('hands an absence past the grace to onFollowUp, and a failed read to afterPoll', async () => {
    let fail = false;
    const broker = {
      orderBook: async () => {
        if (fail) throw new Error('books unreadable');
        return [];
      },
      tradeBook: async () => [],
      orderHistory: async () => [],
    } as unknown as Broker;
    const clock = new VirtualClock(0);
    const followUps: string[] = [];
    const polled: unknown[] = [];
    const tracker = new OrderTracker({
      broker,
      clock,
      logger: pino({ level: 'silent' }),
      intervalMs: 1_000,
      unknownGraceMs: 5_000,
      sink: { emit: () => {}, persist: () => {} },
      onFollowUp: async (step) => {
        followUps.push(`${step.kind}:${step.order.tag}`);
      },
      afterPoll: (error) => polled.push(error),
      isPaused: () => false,
    });
    const { orderId: _id, ...unplaced } = order();
    tracker.track({ ...unplaced, status: 'unknown', unknownSince: 0 });
    await tracker.poll();
    expect(followUps).toEqual([]);
    clock.advanceTo(5_000);
    await tracker.poll();
    expect(followUps).toEqual(['absent:s1-x-1']);
    fail = true;
    await tracker.poll();
    expect(polled).toHaveLength(3);
    expect(polled.slice(0, 2)).toEqual([undefined, undefined]);
    expect(polled[2]).toBeInstanceOf(Error);
    expect(tracker.lastReadOk).toBe(false);
  });

  it('neither re-applies nor re-writes an order whose record has not changed', async () => {
    const open = {
      id: '1000000007',
      tags: 's1-x-1',
      orderStatus: 'OPEN',
      quantity: '10',
      price: '800.00',
      fillShares: '0',
      rejectReason: '',
      snoOrderDirection: '',
      snoOrderID: '',
    };
    const broker = {
      orderBook: async () => [open],
      tradeBook: async () => [],
      orderHistory: async () => [],
    } as unknown as Broker;
    const events: OrderEvent[] = [];
    const persisted: string[] = [];
    const tracker = new OrderTracker({
      broker,
      clock: new VirtualClock(0),
      logger: pino({ level: 'silent' }),
      intervalMs: 1_000,
      unknownGraceMs: 5_000,
      sink: { emit: (e) => events.push(e), persist: (o) => persisted.push(o.status) },
      onFollowUp: async () => {},
      afterPoll: () => {},
      isPaused: () => false,
    });
    tracker.track(order());
    await tracker.poll();
    await tracker.poll();
    await tracker.poll();
    expect(events.map((e) => e.type)).toEqual(['OrderOpened']);
    expect(persisted).toEqual(['open']);
    open.orderStatus = 'CANCELED';
    await tracker.poll();
    expect(events.map((e) => e.type)).toEqual(['OrderOpened', 'OrderCancelled']);
    expect(persisted).toEqual(['open', 'cancelled']);
  });
});
