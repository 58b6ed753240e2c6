import { afterEach, describe, expect, it, vi } from 'vitest';
import { pollUntil } from './poll-until.ts';

describe('pollUntil', () => {
  afterEach(() => vi.useRealTimers());

  it('resolves on the first poll that holds, polling every everyMs', async () => {
    vi.useFakeTimers();
    let polls = 0;
    const done = pollUntil(() => ++polls === 3, 1_000, 'the third poll', 50);
    await vi.advanceTimersByTimeAsync(100);
    await expect(done).resolves.toBeUndefined();
    expect(polls).toBe(3);
  });

  it('rejects naming what it waited for once timeoutMs has passed', async () => {
    vi.useFakeTimers();
    let polls = 0;
    const done = pollUntil(
      () => {
        polls++;
        return false;
      },
      1_000,
      'the job',
      100,
    );
    const failed = expect(done).rejects.toThrow('timed out after 1000 ms waiting for the job');
    await vi.advanceTimersByTimeAsync(1_200);
    await failed;
    expect(polls).toBeGreaterThanOrEqual(10);
    expect(polls).toBeLessThanOrEqual(12);
  });
});
