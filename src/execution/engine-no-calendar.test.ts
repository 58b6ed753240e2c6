import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { PlaceOrderResult } from '../api/schemas/order-requests.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { Broker } from './broker.ts';
import { ExecutionEngine, type SessionGate } from './execution-engine.ts';
import type { OrderEvent } from './order-events.ts';

/** A broker that accepts every placement and shows nothing in its books. */
function acceptingBroker(placed: string[]): Broker {
  return {
    placeOrder: (_variety, request) => {
      placed.push(request.tags ?? '');
      return Promise.resolve({ orderNo: String(placed.length) } as PlaceOrderResult);
    },
    modifyOrder: () => Promise.reject(new Error('not used')),
    cancelOrder: () => Promise.reject(new Error('not used')),
    orderHistory: () => Promise.resolve([]),
    orderBook: () => Promise.resolve([]),
    tradeBook: () => Promise.resolve([]),
  } as Broker;
}

describe('ExecutionEngine without a calendar', () => {
  it('defers an intent until a calendar loads, then sends it', async () => {
    // Checked to fail: with the earlier rule (deny when no calendar), the intent ends
    // as OrderDenied and nothing is ever placed.
    const clock = new VirtualClock(Date.parse('2026-11-20T09:10:00+05:30'));
    const placed: string[] = [];
    let calendar: SessionGate | undefined;
    const engine = new ExecutionEngine({
      broker: acceptingBroker(placed),
      clock,
      logger: pino({ level: 'silent' }),
      sessions: () => calendar,
    });
    const events: OrderEvent['type'][] = [];
    engine.events$.subscribe((e) => events.push(e.type));
    await engine.submit({
      kind: 'place',
      strategyId: 's1',
      id: 'e1',
      instrument: { exchange: 'NSE', token: '3045', symbol: 'SBIN-EQ' },
      side: 'B',
      quantity: 1,
      orderType: 'MKT',
      product: 'I',
    });
    expect(events).toEqual(['IntentDeferred']);
    expect(placed).toEqual([]);

    calendar = { isOpen: () => true, nextOpen: () => undefined };
    engine.retryDeferred();
    for (let i = 0; i < 20; i++) await Promise.resolve();
    expect(events).toEqual(['IntentDeferred', 'OrderSubmitted']);
    expect(placed).toHaveLength(1);
    await engine.stop();
  });
});
