import { VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { LatestWriter } from './latest-writer.ts';

/** A client that takes the first write, then never reads again until released. */
function stuckClient() {
  const written: string[] = [];
  let aborted = 0;
  const releases: (() => void)[] = [];
  const sink = {
    write: (data: string) => {
      written.push(data);
      if (written.length === 1) return Promise.resolve();
      return new Promise<void>((resolve) => releases.push(resolve));
    },
    abort: () => {
      aborted++;
      // As hono's stream does: a cut makes the pending write settle.
      for (const r of releases.splice(0)) r();
    },
  };
  return { sink, written, aborted: () => aborted, release: () => releases.shift()?.() };
}

const flush = () => new Promise<void>((r) => setImmediate(r));

describe('LatestWriter', () => {
  it('keeps only the latest snapshot for a client that stopped reading, then cuts it', async () => {
    const scheduler = new VirtualTimeScheduler();
    const client = stuckClient();
    const writer = new LatestWriter(client.sink, 30_000, scheduler);
    writer.offer('s0');
    await flush();
    writer.offer('s1'); // in flight, never taken
    await flush();
    for (let k = 2; k < 1_000; k++) writer.offer(`s${k}`);
    expect(writer.waiting).toBe(1);
    expect(client.written).toEqual(['s0', 's1']);
    // Not cut before the bound.
    scheduler.maxFrames = 29_999;
    scheduler.flush();
    expect(client.aborted()).toBe(0);
    scheduler.maxFrames = Number.POSITIVE_INFINITY;
    scheduler.flush();
    expect(client.aborted()).toBe(1);
    expect(writer.stalled).toBe(true);
    expect(writer.waiting).toBe(0);
    await writer.idle();
    writer.offer('late');
    expect(client.written).toEqual(['s0', 's1']);
  });

  it('a slow but live client gets the latest snapshot next, skipping those in between', async () => {
    const scheduler = new VirtualTimeScheduler();
    const client = stuckClient();
    const writer = new LatestWriter(client.sink, 30_000, scheduler);
    writer.offer('a');
    await flush();
    writer.offer('b');
    writer.offer('c');
    writer.offer('d');
    client.release();
    await flush();
    client.release();
    await writer.idle();
    expect(client.written).toEqual(['a', 'b', 'd']);
    scheduler.flush();
    expect(client.aborted()).toBe(0);
  });
});
