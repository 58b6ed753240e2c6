import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import { MemoryJournal } from './journal.ts';
import { engineOn, placeIntent, scriptedBroker, settle } from './testing/engine-fixtures.ts';

describe('placement: the open-order limit counts every working order', () => {
  it('across strategies and instruments, while the exposure reads only its own', async () => {
    // The placement reads its exposure from its own (strategy, instrument) orders only
    // (issue 13); the risk limit on open orders must still count them all.
    // Checked to fail: counting workingFor(...) instead of openCount() let the third in.
    const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
    const { broker, placed } = scriptedBroker({ books: 'stalled' });
    const engine = engineOn(broker, clock, new MemoryJournal(), {
      risk: { marketProtectionPercent: 0, maxOpenOrders: 2 },
    });
    const events: OrderEvent[] = [];
    engine.events$.subscribe((e) => events.push(e));
    const limit = { orderType: 'LMT' as const, price: 10_000 };
    await engine.submit(placeIntent('a', limit));
    await engine.submit({
      ...placeIntent('b', limit),
      strategyId: 's2',
      instrument: { exchange: 'NSE', token: 1594, symbol: 'INFY-EQ' },
    });
    await engine.submit({
      ...placeIntent('c', limit),
      instrument: { exchange: 'NSE', token: 2885, symbol: 'RELIANCE-EQ' },
    });
    await settle();
    expect(placed).toHaveLength(2);
    const denied = events.find((e) => e.type === 'OrderDenied');
    expect(denied).toMatchObject({ intentId: 'c', reason: '2 open orders: the limit is 2' });
  });
});
