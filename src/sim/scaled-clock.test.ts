import { timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ScaledClock } from '../clock/scaled-clock.ts';

// Lives here because src/clock/ takes only the clock itself from the simulator work.
describe('ScaledClock', () => {
  it('starts at the given instant and runs speed times faster', () => {
    let real = 1_000;
    const clock = new ScaledClock(Date.parse('2026-01-05T03:45:00Z'), 60, () => real);
    expect(clock.now()).toBe(Date.parse('2026-01-05T03:45:00Z'));
    real += 1_000;
    expect(clock.now()).toBe(Date.parse('2026-01-05T03:46:00Z'));
  });

  it('counts from a shared anchor, so two clocks built apart agree on market time', () => {
    const start = Date.parse('2026-01-05T03:45:00Z');
    let real = 50_000;
    const anchor = 40_000;
    const first = new ScaledClock(start, 100, () => real, anchor);
    real += 7_000; // the second process starts 7 s later
    const second = new ScaledClock(start, 100, () => real, anchor);
    expect(second.now()).toBe(first.now());
    // (57 000 - 40 000) real ms at 100x past the start
    expect(first.now()).toBe(start + 1_700_000);
    expect(() => new ScaledClock(start, 1, () => real, Number.NaN)).toThrow(RangeError);
  });

  it('fires scheduler timers after the scaled delay', async () => {
    const clock = new ScaledClock(0, 1_000);
    const fired = await new Promise<number>((resolve) => {
      const started = Date.now();
      timer(2_000, clock.scheduler).subscribe(() => resolve(Date.now() - started));
    });
    expect(fired).toBeLessThan(500);
  });

  it('refuses a speed that is not positive', () => {
    expect(() => new ScaledClock(0, 0)).toThrow(RangeError);
  });
});
