import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { MemoryJournal } from './journal.ts';
import { engineOn, placeIntent, scriptedBroker } from './testing/engine-fixtures.ts';

describe('ExecutionEngine: a cancel sent before a restart', () => {
  it('does not stop the restarted engine from cancelling the order again', async () => {
    // `cancelRequested` is an in-memory "not twice" guard. A journal row that carries it
    // (written when the order was last persisted after a cancel was sent) must not make
    // a still-open order uncancellable after a restart: square-off has to reach it.
    // Checked to fail: without the reset in recover.ts, `second.cancelled` stays empty.
    const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
    const journal = new MemoryJournal();
    const first = scriptedBroker();
    const before = engineOn(first.broker, clock, journal);
    await before.submit(placeIntent('rest', { orderType: 'LMT', price: 80_000 }));
    const [row] = journal.load().orders;
    expect(row?.orderId).toBe('N1');
    if (row === undefined) throw new Error('no journalled order');
    journal.commit({ orders: [{ ...row, cancelRequested: true }], at: clock.now() });

    const second = scriptedBroker();
    const engine = engineOn(second.broker, clock, journal);
    await engine.recover();
    await engine.submit({ kind: 'squareOff', id: 'eod', reason: 'close', strategyId: 's1' });
    expect(second.cancelled).toEqual(['N1']);
  });
});
