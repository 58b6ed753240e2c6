import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../clock/virtual-clock.ts';
import { requestDeadline } from './request-deadline.ts';

describe('requestDeadline', () => {
  it('aborts exactly at the deadline on its clock, and says it expired', () => {
    const clock = new VirtualClock(0);
    const d = requestDeadline(clock, 1_000, undefined);
    clock.advanceBy(999);
    expect(d.signal.aborted).toBe(false);
    clock.advanceBy(1);
    expect(d.signal.aborted).toBe(true);
    expect(d.expired).toBe(true);
  });

  it("follows the caller's abort, which is not an expiry", () => {
    const clock = new VirtualClock(0);
    const caller = new AbortController();
    const d = requestDeadline(clock, 1_000, caller.signal);
    caller.abort(new Error('stop'));
    expect(d.signal.aborted).toBe(true);
    expect((d.signal.reason as Error).message).toBe('stop');
    expect(d.expired).toBe(false);
    expect(requestDeadline(clock, 1_000, caller.signal).signal.aborted).toBe(true);
  });

  // How I checked: without the listener's removal in dispose, the day-long caller signal
  // kept one listener per request and this failed (1000 listeners).
  it('leaves nothing attached to a long-lived caller signal once disposed', () => {
    const clock = new VirtualClock(0);
    const stop = new AbortController();
    for (let i = 0; i < 1_000; i++) requestDeadline(clock, 1_000, stop.signal).dispose();
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    expect(clock.pending).toBe(0);
  });
});
