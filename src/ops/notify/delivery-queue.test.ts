import { describe, expect, it, vi } from 'vitest';
import { DeliveryQueue, type SendOutcome } from './delivery-queue.ts';

/** A wait that only records: virtual time, no timers. */
function recordingWait() {
  const waits: number[] = [];
  return { waits, wait: async (ms: number) => void waits.push(ms) };
}

const settings = { capacity: 3, maxRetries: 3, retryBaseMs: 1_000, retryMaxMs: 4_000 };

describe('DeliveryQueue', () => {
  it('retries with doubling backoff capped at retryMaxMs, then counts a failure', async () => {
    const { waits, wait } = recordingWait();
    const send = vi.fn(async (): Promise<SendOutcome> => ({ kind: 'retry', reason: 'HTTP 503' }));
    const problems: [string, boolean][] = [];
    const q = new DeliveryQueue<string>({
      ...settings,
      send,
      wait,
      onProblem: (r, f) => problems.push([r, f]),
    });
    q.push('a');
    await q.flush(new AbortController().signal);
    expect(send).toHaveBeenCalledTimes(4);
    expect(waits).toEqual([1_000, 2_000, 4_000]);
    expect(q.stats()).toEqual({ queued: 0, sent: 0, failed: 1, dropped: 0, retries: 3 });
    expect(problems.at(-1)).toEqual(['HTTP 503', true]);
  });

  it("honours the service's retry_after when longer than the backoff", async () => {
    const { waits, wait } = recordingWait();
    const outcomes: SendOutcome[] = [
      { kind: 'retry', reason: '429', afterMs: 7_000 },
      { kind: 'sent' },
    ];
    const q = new DeliveryQueue<string>({
      ...settings,
      send: async () => outcomes.shift() as SendOutcome,
      wait,
    });
    q.push('a');
    await q.flush(new AbortController().signal);
    expect(waits).toEqual([7_000]);
    expect(q.stats()).toMatchObject({ sent: 1, retries: 1, failed: 0 });
  });

  it('does not retry a final refusal', async () => {
    const send = vi.fn(async (): Promise<SendOutcome> => ({ kind: 'fail', reason: 'HTTP 400' }));
    const q = new DeliveryQueue<string>({ ...settings, send, wait: recordingWait().wait });
    q.push('a');
    await q.flush(new AbortController().signal);
    expect(send).toHaveBeenCalledTimes(1);
    expect(q.stats()).toMatchObject({ failed: 1, retries: 0 });
  });

  it('never blocks a push: a full queue drops its oldest waiting item and counts it', async () => {
    let release: () => void = () => {};
    const sent: string[] = [];
    const q = new DeliveryQueue<string>({
      ...settings,
      send: async (item) => {
        // The first send hangs until released: everything after it waits in the queue.
        if (sent.length === 0) await new Promise<void>((r) => (release = r));
        sent.push(item);
        return { kind: 'sent' };
      },
      wait: recordingWait().wait,
    });
    for (const item of ['a', 'b', 'c', 'd', 'e']) expect(q.push(item)).toBe(true);
    // 'a' is in flight; b..e wanted 4 places in 3: 'b' was dropped.
    expect(q.stats()).toMatchObject({ queued: 3, dropped: 1 });
    release();
    await q.flush(new AbortController().signal);
    expect(sent).toEqual(['a', 'c', 'd', 'e']);
    expect(q.stats()).toEqual({ queued: 0, sent: 4, failed: 0, dropped: 1, retries: 0 });
  });

  it('paces each item and closing drops what waits, counted; flush is bounded by its signal', async () => {
    vi.useFakeTimers();
    try {
      const sent: string[] = [];
      const q = new DeliveryQueue<string>({
        ...settings,
        send: async (item) => {
          sent.push(item);
          return { kind: 'sent' };
        },
        paceMs: () => 1_000,
      });
      q.push('a');
      q.push('b');
      q.push('c');
      await vi.advanceTimersByTimeAsync(999);
      expect(sent).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(sent).toEqual(['a']);
      const budget = new AbortController();
      const flushed = q.flush(budget.signal);
      budget.abort();
      await flushed;
      q.close();
      await vi.advanceTimersByTimeAsync(5_000);
      expect(sent).toEqual(['a']);
      // 'c' was waiting, 'b' was being paced when the queue closed.
      expect(q.stats()).toMatchObject({ sent: 1, dropped: 2, queued: 0 });
      expect(q.push('d')).toBe(false);
      expect(q.stats().dropped).toBe(3);
    } finally {
      vi.useRealTimers();
    }
  });
});
