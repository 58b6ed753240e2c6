import { describe, expect, it } from 'vitest';
import { SessionError } from '../api/errors/session-error.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import { memoryLogger } from '../market-data/testing/fake-quote-source.ts';
import { ExecutionEngine } from './execution-engine.ts';
import { MemoryJournal } from './journal.ts';
import { OPEN_SESSION, placeIntent, scriptedBroker, settle } from './testing/engine-fixtures.ts';

const place = (id: string) => placeIntent(id, { orderType: 'LMT', price: 10_000 });

/** An engine trading live (a released broker, its book read stalled), its events kept. */
function liveEngine() {
  const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
  const b = scriptedBroker({ books: 'stalled' });
  b.release();
  const engine = new ExecutionEngine({
    broker: b.broker,
    clock,
    logger: memoryLogger().logger,
    sessions: OPEN_SESSION,
    onSessionRefused: () => undefined,
  });
  const events: OrderEvent[] = [];
  engine.events$.subscribe((e) => events.push(e));
  return { b, engine, events };
}

/** An engine restarted over a journal with one order (e1), its book read stalled. */
async function restartedUnreconciled() {
  const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
  const journal = new MemoryJournal();
  const first = scriptedBroker({ books: 'stalled' });
  const logger = memoryLogger().logger;
  const before = new ExecutionEngine({
    broker: first.broker,
    clock,
    logger,
    sessions: OPEN_SESSION,
    journal,
  });
  await before.submit(place('e1'));
  const second = scriptedBroker({ books: 'stalled' });
  const engine = new ExecutionEngine({
    broker: second.broker,
    clock,
    logger,
    sessions: OPEN_SESSION,
    journal,
  });
  const events: OrderEvent[] = [];
  engine.events$.subscribe((e) => events.push(e));
  const recovering = engine.recover();
  await settle();
  clock.advanceBy(5_000);
  await recovering;
  engine.start();
  return { engine, events, second };
}

const reasons = (events: OrderEvent[], type: OrderEvent['type']) =>
  events.filter((e) => e.type === type).map((e) => [e.intentId, 'reason' in e ? e.reason : '']);

describe('a cancel or modify whose target is still deferred', () => {
  it('while reconciling, a cancel withdraws the deferred placement instead of being denied', async () => {
    // How this was checked: with the earlier engine (cancels went straight to the
    // broker), c2 was denied ('no open order for intent "e2"') and e2 was placed once
    // the books were read: the `placed` and OrderDenied assertions failed.
    const { engine, events, second } = await restartedUnreconciled();
    await engine.submit(place('e2'));
    await engine.submit({ kind: 'cancel', strategyId: 's1', id: 'c2', target: 'e2' });
    expect(second.cancelled).toEqual([]);
    expect(reasons(events, 'OrderDenied')).toEqual([
      ['e2', 'cancelled by intent "c2" before it was sent (it was deferred)'],
    ]);
    second.release();
    await settle();
    expect(second.placed).toEqual([]);
    await engine.stop();
  });

  it('while reconciling, a modify changes the deferred placement, which goes out once, changed', async () => {
    // How this was checked: with the earlier engine the modify was deferred on its own,
    // flushed after the placement and denied (no order id yet), and e3 went out with
    // quantity 1 at 100.00.
    const { engine, events, second } = await restartedUnreconciled();
    await engine.submit(place('e3'));
    await engine.submit({
      kind: 'modify',
      strategyId: 's1',
      id: 'm3',
      target: 'e3',
      quantity: 2,
      price: 9_900,
    });
    second.release();
    await settle();
    expect(second.placed.map((p) => [p.quantity, p.price])).toEqual([['2', '99.00']]);
    expect(reasons(events, 'OrderDenied')).toEqual([]);
    await engine.stop();
  });

  it('while paused, a cancel of a deferred placement withdraws it', async () => {
    // How this was checked: with the earlier engine, c5 was deferred behind e5, both
    // flushed at resume; e5 was placed and c5 denied (no order id yet).
    const { b, engine, events } = liveEngine();
    await engine.submit(place('e4'));
    engine.pause(new SessionError('HTTP 401', { operation: 'placeOrder', status: 401 }));
    await engine.submit(place('e5'));
    await engine.submit({ kind: 'cancel', strategyId: 's1', id: 'c5', target: 'e5' });
    // e4 is at the broker: its cancel waits for the pause, behind nothing.
    await engine.submit({ kind: 'cancel', strategyId: 's1', id: 'c4', target: 'e4' });
    expect(reasons(events, 'IntentDeferred').map(([id]) => id)).toEqual(['e5', 'c4']);
    engine.resume();
    await settle();
    expect(b.placed).toHaveLength(1);
    expect(b.cancelled).toEqual(['N1']);
    expect(reasons(events, 'OrderDenied')).toEqual([
      ['e5', 'cancelled by intent "c5" before it was sent (it was deferred)'],
    ]);
    await engine.stop();
  });

  it('while paused, a cancel of a deferred bracket withdraws it whole (nothing enters at the resume)', async () => {
    // How this was checked: without the bracket branch in DeferredIntents.actOn, c7 was
    // deferred behind b7 and both flushed at resume: b7's entry was placed (1, not 0).
    const { b, engine, events } = liveEngine();
    engine.pause(new SessionError('HTTP 401', { operation: 'placeOrder', status: 401 }));
    await engine.submit({
      kind: 'bracket',
      strategyId: 's1',
      id: 'b7',
      instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
      side: 'B',
      quantity: 10,
      product: 'I',
      entry: { orderType: 'LMT', price: 80_000 },
      stopLoss: { points: 400 },
    });
    await engine.submit({ kind: 'cancel', strategyId: 's1', id: 'c7', target: 'b7' });
    engine.resume();
    await settle();
    expect(b.placed).toHaveLength(0);
    expect(reasons(events, 'OrderDenied')).toEqual([
      ['b7', 'cancelled by intent "c7" before it was sent (it was deferred)'],
    ]);
    await engine.stop();
  });

  it('while reconciling, a cancel waits behind a deferred modify of the same order, in order', async () => {
    // How this was checked: with the earlier engine the cancel of e1 went out at once,
    // ahead of the modify deferred before it (`cancelled` was ['N1'] before the release).
    const { engine, events, second } = await restartedUnreconciled();
    await engine.submit({ kind: 'modify', strategyId: 's1', id: 'm1', target: 'e1', price: 9_900 });
    await engine.submit({ kind: 'cancel', strategyId: 's1', id: 'c1', target: 'e1' });
    expect(second.cancelled).toEqual([]);
    expect(reasons(events, 'IntentDeferred')).toEqual([
      ['m1', 'reconciling with the broker after a restart'],
      ['c1', 'waiting behind a deferred intent for "e1"'],
    ]);
    second.release();
    await settle();
    expect(second.modified).toEqual(['N1']);
    expect(second.cancelled).toEqual(['N1']);
    await engine.stop();
  });
});
