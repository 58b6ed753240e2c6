import { closeSync, openSync, writeSync } from 'node:fs';
import type { FullQuote, OhlcvQuote, Quote } from '../api/schemas/quote.ts';
import type { Greeks } from '../api/schemas/utilities.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import {
  HEADER_BYTES,
  KIND_CODE,
  MAX_OFFSET_MS,
  RECORD_HEADER_BYTES,
  RECORD_MAGIC,
  RECORD_VERSION,
  type RecordKind,
  recordSize,
} from './record-format.ts';
import { RecordingError } from './recording-error.ts';

const CHUNK = 1 << 16;

/**
 * Appends quotes and greeks to a quote file in the layout of `record-format.ts`: into
 * memory, or through a buffer flushed to a file every 64 KiB (synchronous writes: the
 * recorder must not reorder records, and 64 KiB at a time costs nothing next to polling).
 *
 * @example
 * ```ts
 * const w = new RecordWriter(Date.parse('2026-11-20T03:44:00Z'), 'backtests/data/day/quotes.bin');
 * w.quote('ltp', { token: 3045, ltp: 80_000, close: 79_500 }, clock.now());
 * w.close();
 * ```
 */
export class RecordWriter {
  private buf = Buffer.alloc(CHUNK);
  private view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  private used = 0;
  private readonly fd: number | undefined;
  private readonly memory: Buffer[] = [];
  private count = 0;
  private closed = false;

  /**
   * @param baseTime epoch ms all record times are offsets from (the recording's start).
   * @param path file to write, truncated; omit to keep the bytes in memory ({@link bytes}).
   */
  constructor(
    readonly baseTime: number,
    readonly path?: string,
  ) {
    try {
      this.fd = path === undefined ? undefined : openSync(path, 'w');
    } catch (err) {
      throw new RecordingError('io', `cannot create ${path}`, { cause: err });
    }
    this.view.setUint32(0, RECORD_MAGIC, true);
    this.view.setUint16(4, RECORD_VERSION, true);
    this.view.setUint16(6, HEADER_BYTES, true);
    this.view.setFloat64(8, baseTime, true);
    this.used = HEADER_BYTES;
  }

  /** Records written so far. */
  get records(): number {
    return this.count;
  }

  /** Appends a quote of `mode`, seen at `at` (epoch ms). */
  quote(mode: QuoteMode, quote: Quote, at: number): void {
    if (mode === 'ltp') {
      const o = this.begin('ltp', at, quote.token);
      this.view.setInt32(o, quote.ltp, true);
      this.view.setInt32(o + 4, quote.close, true);
      return;
    }
    if (mode === 'ohlcv') {
      const q = quote as OhlcvQuote;
      const v = this.view;
      const o = this.begin('ohlcv', at, q.token);
      v.setInt32(o, q.open, true);
      v.setInt32(o + 4, q.high, true);
      v.setInt32(o + 8, q.low, true);
      v.setInt32(o + 12, q.close, true);
      v.setInt32(o + 16, q.ltp, true);
      v.setUint32(o + 20, q.ltt, true);
      v.setFloat64(o + 24, q.oi, true);
      v.setFloat64(o + 32, q.volume, true);
      return;
    }
    const q = quote as FullQuote;
    const o = this.begin('full', at, q.token, q.bids.length, q.asks.length);
    const v = this.view;
    v.setInt32(o, q.avgPrice, true);
    v.setInt32(o + 4, q.open, true);
    v.setInt32(o + 8, q.high, true);
    v.setInt32(o + 12, q.low, true);
    v.setInt32(o + 16, q.close, true);
    v.setInt32(o + 20, q.ltp, true);
    v.setInt32(o + 24, q.ltq, true);
    v.setUint32(o + 28, q.ltt, true);
    v.setUint32(o + 32, q.time, true);
    v.setInt32(o + 36, q.netChange, true);
    v.setInt32(o + 40, q.netChangeIndicator, true);
    v.setInt32(o + 44, q.lowerLimit, true);
    v.setInt32(o + 48, q.upperLimit, true);
    v.setFloat64(o + 52, q.oi, true);
    v.setFloat64(o + 60, q.oiDayHigh, true);
    v.setFloat64(o + 68, q.oiDayLow, true);
    v.setFloat64(o + 76, q.totalBuyQty, true);
    v.setFloat64(o + 84, q.totalSellQty, true);
    v.setFloat64(o + 92, q.volume, true);
    let p = o + 100;
    for (const side of [q.bids, q.asks]) {
      for (const l of side) {
        v.setInt32(p, l.price, true);
        v.setInt32(p + 4, l.quantity, true);
        v.setInt32(p + 8, l.orders, true);
        p += 12;
      }
    }
  }

  /** Appends the greeks of option `token`, seen at `at`. */
  greeks(token: number, g: Greeks, at: number): void {
    const o = this.begin('greeks', at, token);
    const v = this.view;
    v.setFloat64(o, g.iv, true);
    v.setFloat64(o + 8, g.delta, true);
    v.setFloat64(o + 16, g.gamma, true);
    v.setFloat64(o + 24, g.theta, true);
    v.setFloat64(o + 32, g.vega, true);
  }

  /** Writes out what is buffered (file mode). */
  flush(): void {
    if (this.used === 0) return;
    if (this.fd === undefined) {
      this.memory.push(Buffer.from(this.buf.subarray(0, this.used)));
    } else {
      try {
        writeSync(this.fd, this.buf, 0, this.used);
      } catch (err) {
        throw new RecordingError('io', `cannot write ${this.path}`, { cause: err });
      }
    }
    this.used = 0;
  }

  /** Flushes and closes the file. Safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    if (this.fd !== undefined) closeSync(this.fd);
  }

  /** The whole file's bytes (memory mode), header included. */
  bytes(): Buffer {
    if (this.used > 0) this.flush();
    return Buffer.concat(this.memory);
  }

  /** Reserves one record and writes its header; returns the body's offset. */
  private begin(kind: RecordKind, at: number, token: number, bids = 0, asks = 0): number {
    if (this.closed) throw new RecordingError('io', 'recording already closed');
    const offset = at - this.baseTime;
    if (!(offset >= 0 && offset <= MAX_OFFSET_MS)) {
      throw new RecordingError(
        'too-long',
        `record at ${new Date(at).toISOString()} is outside the file's 49-day window from ${new Date(this.baseTime).toISOString()}; start a new recording`,
      );
    }
    const size = recordSize(kind, bids, asks);
    if (this.used + size > this.buf.length) {
      this.flush();
      if (size > this.buf.length) this.grow(size);
    }
    const o = this.used;
    const v = this.view;
    v.setUint8(o, KIND_CODE[kind]);
    v.setUint8(o + 1, bids);
    v.setUint8(o + 2, asks);
    v.setUint8(o + 3, 0);
    v.setUint32(o + 4, Math.round(offset), true);
    v.setInt32(o + 8, token, true);
    this.used += size;
    this.count += 1;
    return o + RECORD_HEADER_BYTES;
  }

  private grow(size: number): void {
    this.buf = Buffer.alloc(size);
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
  }
}
