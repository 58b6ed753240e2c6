import { describe, expect, it } from 'vitest';
import { SessionError } from '../api/errors/session-error.ts';
import type { OrderBookRecord, TradeBookRecord } from '../api/schemas/order-records.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import { memoryLogger } from '../market-data/testing/fake-quote-source.ts';
import { ExecutionEngine } from './execution-engine.ts';
import { OPEN_SESSION, placeIntent, scriptedBroker, settle } from './testing/engine-fixtures.ts';

const MORNING = Date.parse('2026-11-20T10:00:00+05:30');

describe('ExecutionEngine on a fake broker: pause and flatten', () => {
  it('pauses on a refused session, keeps the intent, and sends it on resume', async () => {
    // Checked to fail: with IntentOutcomes.brokerError treating a SessionError as a
    // plain refusal, e1 ends OrderRejected, nothing is deferred and `placed` stays 0.
    const fake = scriptedBroker();
    const place = fake.broker.placeOrder;
    let refuse = true;
    fake.broker.placeOrder = (variety, request) => {
      if (refuse)
        return Promise.reject(
          new SessionError('expired', { operation: 'placeOrder', status: 401 }),
        );
      return place(variety, request);
    };
    const refused: unknown[] = [];
    const engine = new ExecutionEngine({
      broker: fake.broker,
      clock: new VirtualClock(MORNING),
      logger: memoryLogger().logger,
      sessions: OPEN_SESSION,
      onSessionRefused: (err) => refused.push(err),
    });
    const events: OrderEvent[] = [];
    engine.events$.subscribe((e) => events.push(e));
    await engine.submit(placeIntent('e1'));
    expect(engine.pausedReason).toMatch(/401\/403/);
    expect(refused).toHaveLength(1);
    await engine.submit(placeIntent('e2'));
    expect(fake.placed).toHaveLength(0);
    expect(events.filter((e) => e.type === 'IntentDeferred')).toHaveLength(2);
    refuse = false;
    engine.resume();
    await settle();
    expect(engine.pausedReason).toBeUndefined();
    expect(fake.placed).toHaveLength(2);
  });

  it('trips the kill switch on a losing fill: cancels what is open and squares off', async () => {
    // Checked to fail: with flattenAll's cancelAll left out, N2 (of s2, which holds no
    // position to square off) is never cancelled.
    const fake = scriptedBroker();
    let book: OrderBookRecord[] = [];
    let trades: TradeBookRecord[] = [];
    fake.broker.orderBook = async () => book;
    fake.broker.tradeBook = async () => trades;
    let ltp = 80_000;
    const engine = new ExecutionEngine({
      broker: fake.broker,
      clock: new VirtualClock(MORNING),
      logger: memoryLogger().logger,
      sessions: OPEN_SESSION,
      risk: { dailyMaxLoss: 5_000, flattenOnKill: true },
      quote: () => ({ ltp, lowerLimit: 0, upperLimit: 0 }),
    });
    engine.markAndCheck(); // the day's first look: the baseline
    await engine.submit(placeIntent('entry', { quantity: 10 }));
    // Another strategy's resting order: no position, so only the flatten's cancel reaches it.
    await engine.submit({
      ...placeIntent('resting', { orderType: 'LMT', price: 70_000 }),
      strategyId: 's2',
    });
    const row = (id: string, tag: string, status: string, filled: string) =>
      ({
        id,
        tags: tag,
        orderStatus: status,
        quantity: id === 'N1' ? '10' : '1',
        price: '0',
        fillShares: filled,
        rejectReason: '',
        snoOrderDirection: '',
        snoOrderID: '',
      }) as OrderBookRecord;
    book = [
      row('N1', fake.placed[0]?.tag ?? '', 'COMPLETE', '10'),
      row('N2', fake.placed[1]?.tag ?? '', 'OPEN', '0'),
    ];
    trades = [
      {
        id: 'N1',
        fillID: 'f1',
        fillQuantity: '10',
        fillShares: '10',
        fillPrice: '800.00',
        averagePrice: '800.00',
      } as TradeBookRecord,
    ];
    ltp = 79_000; // 10 × ₹10 below the fill: a loss of ₹100 = 10,000 paise
    await engine.poll();
    await settle();
    expect(engine.killed).toBe(true);
    // N1 may be asked too: the check runs as its fill is booked, before it is marked complete.
    expect(fake.cancelled).toContain('N2');
    expect(fake.placed.at(-1)).toMatchObject({ quantity: '10' });
    expect(fake.placed).toHaveLength(3);
  });
});
