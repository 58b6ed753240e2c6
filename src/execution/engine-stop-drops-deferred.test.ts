import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { memoryLogger } from '../market-data/testing/fake-quote-source.ts';
import { ExecutionEngine } from './execution-engine.ts';
import { placeIntent, scriptedBroker } from './testing/engine-fixtures.ts';

const { broker } = scriptedBroker({ placements: 'refuse' });

const exit = placeIntent('exit1', { side: 'S' });

describe('ExecutionEngine.shutdown with deferred intents', () => {
  it('lists dropped placements and square-offs in unfinished and warns for each', async () => {
    // How this was checked: with the earlier stopAccepting (one info line, nothing in
    // the report), `unfinished` was [] (exit 0) and no warn line named the intents.
    const clock = new VirtualClock(Date.parse('2026-11-20T08:00:00+05:30'));
    const log = memoryLogger();
    const engine = new ExecutionEngine({
      broker,
      clock,
      logger: log.logger,
      // Before the open: placements wait for it.
      sessions: {
        isOpen: () => false,
        nextOpen: () => clock.now() + 3_600_000,
        nextClose: () => undefined,
      },
    });
    await engine.submit(exit);
    await engine.submit({ kind: 'cancel', strategyId: 's1', id: 'c9', target: 'other' });
    const report = await engine.shutdown('leave');
    expect(report.unfinished).toEqual([
      'deferred intent(s) dropped at the stop, never sent: s1/exit1 (place)',
    ]);
    const warned = log.lines.filter(
      (l) => l.level === 40 && /deferred intent is dropped/.test(String(l.msg)),
    );
    expect(warned.map((l) => [l.strategyId, l.intentId])).toEqual([['s1', 'exit1']]);
  });
});
