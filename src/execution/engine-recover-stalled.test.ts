import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import { memoryLogger } from '../market-data/testing/fake-quote-source.ts';
import { ExecutionEngine } from './execution-engine.ts';
import { MemoryJournal } from './journal.ts';
import { OPEN_SESSION, placeIntent, scriptedBroker, settle } from './testing/engine-fixtures.ts';

describe('ExecutionEngine.recover with a broker whose book read stalls', () => {
  it('returns within its wait, says so, holds orders but cancels until the books are read', async () => {
    // How this was checked: with the earlier recover() (it awaited the whole poll),
    // `recovered` is still false after 5 s of virtual time and the test fails there;
    // with the handle() guard removed, e2 is placed before the books are read and the
    // `placed` assertion fails.
    const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
    const journal = new MemoryJournal();
    // A first run placed e1 (open at the broker), then the process died.
    const first = scriptedBroker({ books: 'stalled' });
    const before = new ExecutionEngine({
      broker: first.broker,
      clock,
      logger: memoryLogger().logger,
      sessions: OPEN_SESSION,
      journal,
    });
    await before.submit(placeIntent('e1'));
    expect(first.placed).toHaveLength(1);

    const second = scriptedBroker({ books: 'stalled' });
    const log = memoryLogger();
    const engine = new ExecutionEngine({
      broker: second.broker,
      clock,
      logger: log.logger,
      sessions: OPEN_SESSION,
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
    await engine.submit(placeIntent('e2'));
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
    const first = scriptedBroker({ books: 'stalled' });
    const before = new ExecutionEngine({
      broker: first.broker,
      clock,
      logger: memoryLogger().logger,
      sessions: OPEN_SESSION,
      journal,
    });
    await before.submit(placeIntent('e1'));
    const second = scriptedBroker({ books: 'stalled' });
    second.release();
    const engine = new ExecutionEngine({
      broker: second.broker,
      clock,
      logger: memoryLogger().logger,
      sessions: OPEN_SESSION,
      journal,
    });
    await engine.recover();
    await engine.submit(placeIntent('e2'));
    expect(second.placed).toHaveLength(1);
    await engine.stop();
  });
});
