import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { memoryLogger } from '../market-data/testing/fake-quote-source.ts';
import { engineBook } from './engine-book.ts';

describe('engineBook', () => {
  // Checked to fail with the journal calls unguarded: the read threw "journal closed".
  it('still closes and warns when its journal can no longer be read or written (closed at a stop)', () => {
    const clock = new VirtualClock(Date.parse('2026-11-23T10:00:00+05:30'));
    const { logger, lines } = memoryLogger();
    const closed = () => {
      throw new Error('journal closed');
    };
    const book = engineBook({ clock, logger }, { getMeta: closed, setMeta: closed });
    const at = clock.now();
    book.applyFill('s1', 3045, 'SBIN-EQ', 'B', 1, 80_000, { product: 'I', at, learntAt: at });
    clock.advanceTo(Date.parse('2026-11-24T09:20:00+05:30'));
    expect(book.position('s1', 3045)?.netQuantity).toBe(0);
    expect(lines.filter((l) => l.level === 40).map((l) => String(l.msg))).toEqual([
      expect.stringMatching(/was still open after its day ended/),
    ]);
  });
});
