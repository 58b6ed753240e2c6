import { interval, take, timer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { sleep } from './sleep.ts';
import { VirtualClock } from './virtual-clock.ts';

describe('VirtualClock', () => {
  it('fires timers in due order only when advanced', () => {
    const clock = new VirtualClock(1_000);
    const seen: string[] = [];
    timer(300, clock.scheduler).subscribe(() => seen.push(`b@${clock.now()}`));
    timer(100, clock.scheduler).subscribe(() => seen.push(`a@${clock.now()}`));
    expect(seen).toEqual([]);
    clock.advanceBy(200);
    expect(seen).toEqual(['a@1100']);
    expect(clock.now()).toBe(1_200);
    clock.advanceBy(200);
    expect(seen).toEqual(['a@1100', 'b@1300']);
  });

  it('runs periodic work (interval) and stops on unsubscribe', () => {
    const clock = new VirtualClock(0);
    const seen: number[] = [];
    const sub = interval(1_000, clock.scheduler).subscribe((n) => seen.push(n));
    clock.advanceBy(3_500);
    expect(seen).toEqual([0, 1, 2]);
    sub.unsubscribe();
    clock.advanceBy(5_000);
    expect(seen).toEqual([0, 1, 2]);
    expect(clock.pending).toBe(0);
  });

  it('follows async chains with advanceByAsync', async () => {
    const clock = new VirtualClock(0);
    const stamps: number[] = [];
    const run = async (): Promise<void> => {
      for (let i = 0; i < 3; i++) {
        await sleep(clock, 500);
        stamps.push(clock.now());
      }
    };
    const done = run();
    await clock.advanceByAsync(2_000);
    await done;
    expect(stamps).toEqual([500, 1_000, 1_500]);
    expect(clock.now()).toBe(2_000);
  });

  it('auto mode jumps to each due timer by itself', async () => {
    const clock = new VirtualClock(0, { auto: true });
    await sleep(clock, 60_000);
    expect(clock.now()).toBe(60_000);
    const values = await new Promise<number[]>((resolve) => {
      const acc: number[] = [];
      interval(10, clock.scheduler)
        .pipe(take(3))
        .subscribe({ next: (n) => acc.push(n), complete: () => resolve(acc) });
    });
    expect(values).toEqual([0, 1, 2]);
    expect(clock.now()).toBe(60_030);
  });

  it('sleep rejects when aborted and cancels its timer', async () => {
    const clock = new VirtualClock(0);
    const ac = new AbortController();
    const p = sleep(clock, 1_000, ac.signal);
    ac.abort(new Error('stop'));
    await expect(p).rejects.toThrow('stop');
    expect(clock.pending).toBe(0);
  });
});
