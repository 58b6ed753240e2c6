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
