import { describe, expect, it } from 'vitest';
import type { OrderBookRecord, TradeBookRecord } from '../api/schemas/order-records.ts';
import type { PlaceOrderResult } from '../api/schemas/order-requests.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { memoryLogger } from '../market-data/testing/fake-quote-source.ts';
import type { PlaceIntent } from '../strategy/intents.ts';
import type { Broker } from './broker.ts';
import { ExecutionEngine, type SessionGate } from './execution-engine.ts';
import { MemoryJournal } from './journal.ts';
import type { OrderEvent } from './order-events.ts';

const OPEN: SessionGate = { isOpen: () => true, nextOpen: () => undefined };

const place = (id: string): PlaceIntent & { strategyId: string } => ({
  kind: 'place',
  strategyId: 's1',
  id,
  instrument: { exchange: 'NSE', token: '3045', symbol: 'SBIN-EQ' },
  side: 'B',
  quantity: 1,
  orderType: 'MKT',
  product: 'I',
});

/** Lets promise continuations run (no timers: the clock is virtual). */
async function settle(): Promise<void> {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

/** A broker whose book reads hang until `release()`: then both books read empty. */
function stalledBooks() {
  const placed: string[] = [];
  const cancelled: string[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const broker: Broker = {
    placeOrder: (_variety, request) => {
      placed.push(request.tags ?? '');
      return Promise.resolve({ orderNo: `N${placed.length}` } as PlaceOrderResult);
    },
    modifyOrder: () => Promise.reject(new Error('not used')),
    cancelOrder: (_variety, orderId) => {
      cancelled.push(orderId);
      return Promise.resolve({} as never);
    },
    orderHistory: () => Promise.resolve([]),
    orderBook: () => gate.then((): OrderBookRecord[] => []),
    tradeBook: () => gate.then((): TradeBookRecord[] => []),
  };
  return { broker, placed, cancelled, release: () => release() };
}

describe('ExecutionEngine.recover with a broker whose book read stalls', () => {
  it('returns within its wait, says so, holds orders but cancels until the books are read', async () => {
    // How this was checked: with the earlier recover() (it awaited the whole poll),
    // `recovered` is still false after 5 s of virtual time and the test fails there;
    // with the handle() guard removed, e2 is placed before the books are read and the
    // `placed` assertion fails.
    const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
    const journal = new MemoryJournal();
    // A first run placed e1 (open at the broker), then the process died.
    const first = stalledBooks();
    const before = new ExecutionEngine({
      broker: first.broker,
      clock,
      logger: memoryLogger().logger,
      sessions: OPEN,
      journal,
    });
    await before.submit(place('e1'));
    expect(first.placed).toHaveLength(1);

    const second = stalledBooks();
    const log = memoryLogger();
    const engine = new ExecutionEngine({
      broker: second.broker,
      clock,
      logger: log.logger,
      sessions: OPEN,
      journal,
    });
    const events: OrderEvent[] = [];
    engine.events$.subscribe((e) => events.push(e));
    let recovered = false;
    const recovering = engine.recover().then((r) => {
      recovered = true;
      return r;
    });
    await settle();
    clock.advanceBy(4_999);
    await settle();
    expect(recovered).toBe(false);
    clock.advanceBy(1);
    await settle();
    expect(recovered).toBe(true);
    expect(await recovering).toEqual({ orders: 1, fills: 0 });
    expect(
      log.lines.filter((l) => /has not answered within 5 s at start/.test(l.msg)),
    ).toHaveLength(1);
    // The journal's order is tracked while the read is out.
    expect(engine.orders().map((o) => o.intentId)).toEqual(['e1']);
    engine.start();

    // A new entry waits; a cancel of the journal's order goes out at once.
    await engine.submit(place('e2'));
    await engine.submit({ kind: 'cancel', strategyId: 's1', id: 'c1', target: 'e1' });
    expect(second.placed).toEqual([]);
    expect(second.cancelled).toEqual(['N1']);
    const deferred = events.filter((e) => e.type === 'IntentDeferred');
    expect(deferred.map((e) => [e.intentId, 'reason' in e ? e.reason : ''])).toEqual([
      ['e2', 'reconciling with the broker after a restart'],
    ]);

    // The books answer: reconciled, and the held entry goes out, once.
    second.release();
    await settle();
    expect(second.placed).toHaveLength(1);
    expect(events.filter((e) => e.type === 'OrderSubmitted').map((e) => e.intentId)).toEqual([
      'e2',
    ]);
    expect(log.lines.some((l) => /reconciled with the broker/.test(l.msg))).toBe(true);
    await engine.stop();
  });

  it('does not hold intents when the books answer within the wait', async () => {
    const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
    const journal = new MemoryJournal();
    const first = stalledBooks();
    const before = new ExecutionEngine({
      broker: first.broker,
      clock,
      logger: memoryLogger().logger,
      sessions: OPEN,
      journal,
    });
    await before.submit(place('e1'));
    const second = stalledBooks();
    second.release();
    const engine = new ExecutionEngine({
      broker: second.broker,
      clock,
      logger: memoryLogger().logger,
      sessions: OPEN,
      journal,
    });
    await engine.recover();
    await engine.submit(place('e2'));
    expect(second.placed).toHaveLength(1);
    await engine.stop();
  });
});
