import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { MemoryJournal } from './journal.ts';
import { engineOn, placeIntent, scriptedBroker } from './testing/engine-fixtures.ts';

const modify = (n: number) =>
  ({ kind: 'modify', id: `m${n}`, target: 'rest', strategyId: 's1', price: 79_000 - n }) as const;

describe('ExecutionEngine: the one count of modifications', () => {
  it('is journalled: after a restart the next change past the limit cancels and places anew', async () => {
    // Checked to fail: with `order.modifications` reset on reload (the count
    // kept in memory only, as the client's pacer did), the restarted engine sends a
    // fourth modification and the expectations on `modified` and `cancelled` break.
    const clock = new VirtualClock(Date.parse('2026-11-20T10:00:00+05:30'));
    const journal = new MemoryJournal();
    const first = scriptedBroker();
    const before = engineOn(first.broker, clock, journal, { maxModifications: 3 });
    await before.submit(placeIntent('rest', { orderType: 'LMT', price: 80_000 }));
    for (let n = 1; n <= 2; n++) await before.submit(modify(n));
    expect(first.modified).toEqual(['N1', 'N1']);

    const second = scriptedBroker();
    const engine = engineOn(second.broker, clock, journal, { maxModifications: 3 });
    await engine.recover();
    await engine.submit(modify(3));
    expect(second.modified).toEqual(['N1']);
    await engine.submit(modify(4));
    expect(second.modified).toEqual(['N1']);
    expect(second.cancelled).toEqual(['N1']);
    expect(second.placed).toHaveLength(1);
    expect(second.placed[0]?.price).toBe('789.95');
  });
});
