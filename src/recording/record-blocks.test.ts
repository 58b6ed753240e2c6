import { describe, expect, it } from 'vitest';
import { recordBlocks } from './record-blocks.ts';
import { RecordReader } from './record-reader.ts';
import { RecordWriter } from './record-writer.ts';
import { RecordingError } from './recording-error.ts';

const T0 = Date.parse('2026-11-20T03:45:00Z');

/** A quote file of `instants` seconds, three records an instant (one of them full, with depth). */
function file(instants: number): Uint8Array {
  const w = new RecordWriter(T0);
  for (let i = 0; i < instants; i++) {
    const at = T0 + i * 1_000;
    w.quote('ltp', { token: 1, ltp: 100 + i, close: 90 }, at);
    w.greeks(2, { iv: 0.2, delta: i / 1_000, gamma: 0, theta: 0, vega: 0 }, at);
    w.quote(
      'full',
      {
        token: 3,
        avgPrice: 0,
        open: 1,
        high: 2,
        low: 1,
        close: 1,
        ltp: 200 + i,
        ltq: 1,
        ltt: 0,
        time: 0,
        netChange: 0,
        netChangeIndicator: 0,
        lowerLimit: 0,
        upperLimit: 0,
        oi: 0,
        oiDayHigh: 0,
        oiDayLow: 0,
        totalBuyQty: 0,
        totalSellQty: 0,
        volume: 0,
        bids: [{ price: 199, quantity: 1, orders: 1 }],
        asks: [{ price: 201, quantity: 1, orders: 1 }],
      },
      at,
    );
  }
  return w.bytes();
}

/** Hands `bytes` over `size` bytes at a time, counting the chunks taken. */
function chunked(bytes: Uint8Array, size: number): AsyncIterable<Uint8Array> & { taken: number } {
  const source = {
    taken: 0,
    async *[Symbol.asyncIterator]() {
      for (let o = 0; o < bytes.length; o += size) {
        source.taken += 1;
        yield bytes.subarray(o, o + size);
      }
    },
  };
  return source;
}

type Row = [string, number, number, number];
const row = (r: RecordReader): Row => [
  r.kind,
  r.time,
  r.token,
  r.kind === 'greeks' ? r.greeks().delta : r.ltp(),
];

describe('recordBlocks', () => {
  it('yields the first block before reading the rest of the file', async () => {
    const bytes = file(2_000);
    const chunks = chunked(bytes, 4_096);
    const total = Math.ceil(bytes.length / 4_096);
    const blocks = recordBlocks(chunks, 'mem');
    const first = await blocks.next();
    expect(first.done).toBe(false);
    // One chunk for the first block, and one more to know its last instant was whole.
    expect(chunks.taken).toBeLessThanOrEqual(2);
    expect(total).toBeGreaterThan(50);
    await blocks.return();
  });

  it('gives the records of the whole file in order, no instant split between blocks', async () => {
    const bytes = file(300);
    const whole: Row[] = [];
    const all = new RecordReader(bytes);
    while (all.next()) whole.push(row(all));
    // Chunk sizes that cut the header, record headers and depth levels in two.
    for (const size of [1, 7, 100, 4_096, bytes.length]) {
      const got: Row[] = [];
      let lastTime: number | undefined;
      for await (const block of recordBlocks(chunked(bytes, size))) {
        expect(block.next()).toBe(true);
        expect(block.time).not.toBe(lastTime);
        do got.push(row(block));
        while (block.next());
        lastTime = block.time;
      }
      expect(got).toEqual(whole);
    }
  });

  it('refuses a truncated file and one that is not a quote file', async () => {
    const bytes = file(10);
    const drain = async (b: Uint8Array) => {
      for await (const block of recordBlocks(chunked(b, 64), 'cut.bin')) while (block.next());
    };
    await expect(drain(bytes.subarray(0, bytes.length - 5))).rejects.toThrow(
      /cut\.bin: truncated record at byte/,
    );
    await expect(drain(new TextEncoder().encode('hello world, not a file'))).rejects.toThrow(
      RecordingError,
    );
  });
});
