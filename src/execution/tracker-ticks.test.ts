import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { TrackerTicks } from './tracker-ticks.ts';

/** Ticks on a virtual clock from 0, every 1 000 ms; `polls` holds each tick's instant. */
function ticksOn(options: {
  announces: boolean;
  settled?: () => boolean;
  /** Runs in each poll, after the books were read. */
  during?: () => void;
}) {
  const clock = new VirtualClock(0);
  const polls: number[] = [];
  let listener: (() => void) | undefined;
  const ticks = new TrackerTicks({
    clock,
    intervalMs: 1_000,
    tick: async () => {
      ticks.reading();
      polls.push(clock.now());
      await Promise.resolve();
      options.during?.();
    },
    ...(options.announces
      ? {
          watch: (l: () => void) => {
            listener = l;
            return () => {
              listener = undefined;
            };
          },
        }
      : {}),
    settled: options.settled ?? (() => true),
  });
  const change = (): void => listener?.();
  return { clock, polls, ticks, change, watching: () => listener !== undefined };
}

describe('TrackerTicks', () => {
  it('polls every interval over a broker that does not announce changes', async () => {
    const { clock, polls, ticks } = ticksOn({ announces: false });
    ticks.start();
    await clock.advanceToAsync(5_000);
    expect(polls).toEqual([1_000, 2_000, 3_000, 4_000, 5_000]);
  });

  it('sets no timer while nothing changes, and polls at the first tick after a change', async () => {
    const { clock, polls, ticks, change } = ticksOn({ announces: true });
    ticks.start();
    await clock.advanceToAsync(1_000); // the first tick always polls
    expect(clock.pending).toBe(0); // settled: the next second costs nothing
    await clock.advanceToAsync(7_300);
    change(); // at 7 300: the tick of 8 000 is the first to see it
    expect(clock.nextDue()).toBe(8_000);
    await clock.advanceToAsync(20_000);
    expect(polls).toEqual([1_000, 8_000]);
    // A change at the very instant of a grid tick: that tick has already read the books.
    await clock.advanceToAsync(23_000);
    change();
    expect(clock.nextDue()).toBe(24_000);
    change(); // a second change before the tick arms nothing more
    expect(clock.pending).toBe(1);
  });

  it('keeps the grid counted from the end of the latest poll', async () => {
    const { clock, polls, ticks, change } = ticksOn({ announces: true });
    ticks.start();
    await clock.advanceToAsync(1_000);
    await clock.advanceToAsync(1_000_000 + 999);
    change();
    await clock.advanceToAsync(2_000_000);
    expect(polls).toEqual([1_000, 1_001_000]);
  });

  it('polls every tick while the latest poll was not settled', async () => {
    let settled = false;
    const { clock, polls, ticks } = ticksOn({ announces: true, settled: () => settled });
    ticks.start();
    await clock.advanceToAsync(3_000);
    expect(polls).toEqual([1_000, 2_000, 3_000]); // not settled: polls as before
    settled = true;
    await clock.advanceToAsync(4_000);
    await clock.advanceToAsync(9_000);
    expect(polls).toEqual([1_000, 2_000, 3_000, 4_000]);
  });

  it('polls the next tick after a change announced while a poll was under way', async () => {
    let announce = false;
    const during = (): void => {
      if (announce) change();
    };
    const { clock, polls, ticks, change } = ticksOn({ announces: true, during });
    ticks.start();
    await clock.advanceToAsync(1_000);
    announce = true;
    change(); // at 1 000, after that tick read: the tick of 2 000 sees it…
    await clock.advanceToAsync(2_000); // …and its poll hears of another change
    announce = false;
    await clock.advanceToAsync(10_000);
    expect(polls).toEqual([1_000, 2_000, 3_000]);
  });

  it('stops: no tick and no listener afterwards', async () => {
    const { clock, polls, ticks, change, watching } = ticksOn({ announces: true });
    ticks.start();
    expect(watching()).toBe(true);
    ticks.stop();
    expect(watching()).toBe(false);
    change();
    await clock.advanceToAsync(10_000);
    expect(polls).toEqual([]);
  });
});
