import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import type { BracketIntent } from '../../domain/intents.ts';
import type { OrderEvent } from '../../domain/order-events.ts';
import { MemoryJournal } from '../journal.ts';
import { engineOn, scriptedBroker } from '../testing/engine-fixtures.ts';

const bracket = (id: string, extra: Partial<BracketIntent> = {}) =>
  ({
    kind: 'bracket',
    strategyId: 's1',
    id,
    instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
    side: 'B',
    quantity: 10,
    product: 'I',
    entry: { orderType: 'LMT', price: 80_000 },
    stopLoss: { points: 400 },
    ...extra,
  }) as const;

function setUp() {
  const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
  const journal = new MemoryJournal();
  const venue = scriptedBroker();
  const engine = engineOn(venue.broker, clock, journal);
  const events: OrderEvent[] = [];
  engine.events$.subscribe((e) => events.push(e));
  return { engine, venue, events, journal };
}

describe('BracketManager: opening a bracket (scripted broker)', () => {
  it('places the entry under the bracket id, keeps the bracket in the journal, and no leg before a fill', async () => {
    const { engine, venue, events, journal } = setUp();
    await engine.submit(bracket('b1'));
    expect(venue.placed).toHaveLength(1);
    expect(venue.placed[0]?.price).toBe('800.00');
    expect(events.map((e) => [e.type, e.intentId])).toEqual([['OrderSubmitted', 'b1']]);
    const kept = JSON.parse(journal.getMeta('brackets') ?? '[]') as Array<{
      intent: { id: string };
    }>;
    expect(kept.map((b) => b.intent.id)).toEqual(['b1']);
    // Cancelling the bracket's id cancels its entry.
    await engine.submit({ kind: 'cancel', id: 'c1', strategyId: 's1', target: 'b1' });
    expect(venue.cancelled).toEqual(['N1']);
  });

  it.each([
    [{ stopLoss: { price: 80_500 } }, 'stopLoss.price 80500 is on the wrong side'],
    [{ target: { price: 79_000 } }, 'target.price 79000 is on the wrong side'],
    [{ entry: { orderType: 'LMT' as const } }, 'needs entry.price'],
  ])('denies %j with its reason, placing nothing', async (change, reason) => {
    const { engine, venue, events } = setUp();
    await engine.submit(bracket('b1', change));
    expect(venue.placed).toHaveLength(0);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'OrderDenied', intentId: 'b1' });
    expect(events[0]?.type === 'OrderDenied' ? events[0].reason : '').toContain(reason);
    expect(engine.brackets.size).toBe(0);
  });

  it('denies a second bracket under an id already used', async () => {
    const { engine, venue, events } = setUp();
    await engine.submit(bracket('b1'));
    await engine.submit(bracket('b1'));
    expect(venue.placed).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'OrderDenied', intentId: 'b1' });
    expect(engine.brackets.size).toBe(1);
  });
});
