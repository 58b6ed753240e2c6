import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RedisSilence } from './redis-silence.ts';

describe('RedisSilence', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('counts a PING left unanswered past the timeout as silence from when it was sent', async () => {
    // A hung server: the PING never settles (SIGSTOP raises no socket error).
    const ping = vi.fn(() => new Promise<never>(() => undefined));
    const silence = new RedisSilence(ping, { everyMs: 2_000, timeoutMs: 5_000, now: Date.now });
    silence.start();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(silence.silentMs()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    // Checked it can fail: without the sentAt check in silentMs, this stayed 0 for ever.
    expect(silence.silentMs()).toBe(5_000);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(silence.silentMs()).toBe(30_000);
    // One PING at a time: a hung server is not sent a pile of them.
    expect(ping).toHaveBeenCalledTimes(1);
    silence.stop();
  });

  it('a refused PING is silence at once; the next answer ends it', async () => {
    let up = false;
    const ping = vi.fn(() =>
      up ? Promise.resolve('PONG') : Promise.reject(new Error('Connection is closed.')),
    );
    const silence = new RedisSilence(ping, { everyMs: 2_000, timeoutMs: 5_000, now: Date.now });
    silence.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(silence.silentMs()).toBe(0); // failed at 0: silent since 0
    await vi.advanceTimersByTimeAsync(6_000);
    expect(silence.silentMs()).toBe(6_000);
    up = true;
    await vi.advanceTimersByTimeAsync(2_000);
    expect(silence.silentMs()).toBe(0);
    silence.stop();
  });
});
