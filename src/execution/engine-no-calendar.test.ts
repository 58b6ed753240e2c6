import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { MarketSessions } from '../domain/market-sessions.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import { ExecutionEngine } from './execution-engine.ts';
import { placeIntent, scriptedBroker, settle } from './testing/engine-fixtures.ts';

describe('ExecutionEngine without a calendar', () => {
  it('defers an intent until a calendar loads, then sends it', async () => {
    // Checked to fail: with the earlier rule (deny when no calendar), the intent ends
    // as OrderDenied and nothing is ever placed.
    const clock = new VirtualClock(Date.parse('2026-11-20T09:10:00+05:30'));
    const { broker, placed } = scriptedBroker();
    let calendar: MarketSessions | undefined;
    const engine = new ExecutionEngine({
      broker,
      clock,
      logger: pino({ level: 'silent' }),
      sessions: () => calendar,
    });
    const events: OrderEvent['type'][] = [];
    engine.events$.subscribe((e) => events.push(e.type));
    await engine.submit(placeIntent('e1'));
    expect(events).toEqual(['IntentDeferred']);
    expect(placed).toEqual([]);

    calendar = { isOpen: () => true, nextOpen: () => undefined, nextClose: () => undefined };
    engine.retryDeferred();
    await settle(20);
    expect(events).toEqual(['IntentDeferred', 'OrderSubmitted']);
    expect(placed).toHaveLength(1);
    await engine.stop();
  });
});
