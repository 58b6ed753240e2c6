import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RedisHeartbeat } from '../../../src/backtest/queue/redis-heartbeat.ts';

/** A Redis whose PING answers, fails or hangs as the test says. */
function fakeRedis() {
  const state = { mode: 'answer' as 'answer' | 'hang' | 'refuse', pings: 0 };
  return {
    state,
    ping: (): Promise<unknown> => {
      state.pings += 1;
      if (state.mode === 'answer') return Promise.resolve('PONG');
      if (state.mode === 'refuse') return Promise.reject(new Error('connect ECONNREFUSED'));
      return new Promise(() => undefined);
    },
  };
}

describe('RedisHeartbeat', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports a hung Redis (no answer within the timeout) as lost, and back when it answers', async () => {
    const redis = fakeRedis();
    const sink = { lost: vi.fn(), back: vi.fn() };
    const beat = new RedisHeartbeat(redis, sink, 10_000, 5_000);
    beat.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sink.back).toHaveBeenCalledTimes(1);
    redis.state.mode = 'hang';
    await vi.advanceTimersByTimeAsync(10_000 + 4_999);
    expect(sink.lost).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(sink.lost).toHaveBeenCalledTimes(1);
    expect(String(sink.lost.mock.calls[0]?.[0])).toMatch(/did not answer a PING in 5 s/);
    redis.state.mode = 'answer';
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sink.back).toHaveBeenCalledTimes(2);
    beat.stop();
  });

  it('reports a refused PING, one PING at a time, and stops', async () => {
    const redis = fakeRedis();
    redis.state.mode = 'refuse';
    const sink = { lost: vi.fn(), back: vi.fn() };
    const beat = new RedisHeartbeat(redis, sink, 1_000, 5_000);
    beat.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sink.lost).toHaveBeenCalledTimes(1);
    redis.state.mode = 'hang';
    await vi.advanceTimersByTimeAsync(4_000); // a hung PING holds the next ones back
    expect(redis.state.pings).toBe(2);
    beat.stop();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(redis.state.pings).toBe(2);
  });
});
