import type { DepthEntry, FullQuote, LtpQuote, OhlcvQuote, Quote } from '../api/schemas/quote.ts';
import type { Greeks } from '../api/schemas/utilities.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import {
  DEPTH_LEVEL_BYTES,
  HEADER_BYTES,
  KIND_OF_CODE,
  RECORD_HEADER_BYTES,
  RECORD_MAGIC,
  RECORD_VERSION,
  type RecordKind,
  recordSize,
} from './record-format.ts';
import { RecordingError } from './recording-error.ts';

/**
 * A cursor over a quote file's bytes: {@link next} steps to the following record and
 * exposes its kind, time and token without allocating; `quote()`/`greeks()` decode the
 * body only when asked. This is the one decoder, used by the replay market, the replay
 * source and the benchmark's baseline alike.
 *
 * @example
 * ```ts
 * const r = new RecordReader(await readFile('quotes.bin'));
 * while (r.next()) if (r.kind === 'ltp') total += r.ltp();
 * ```
 */
export class RecordReader {
  /** Epoch ms record times count from. */
  readonly baseTime: number;
  private readonly view: DataView;
  private readonly end: number;
  private pos: number;
  /** Offset of the current record. */
  offset = -1;
  /** Kind of the current record. */
  kind: RecordKind = 'ltp';
  /** Epoch ms of the current record. */
  time = 0;
  /** Token of the current record. */
  token = 0;

  /** Bytes of the file before `bytes[0]` (a block's place in its file), for error messages. */
  private readonly fileOffset: number;

  constructor(
    readonly bytes: Uint8Array,
    /** Name for error messages. */
    readonly source = 'recording',
    /** Set for a block of records without the file header (see {@link RecordReader.block}). */
    block?: { readonly baseTime: number; readonly fileOffset: number },
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.end = bytes.byteLength;
    if (block !== undefined) {
      this.pos = 0;
      this.baseTime = block.baseTime;
      this.fileOffset = block.fileOffset;
      return;
    }
    this.fileOffset = 0;
    if (this.end < HEADER_BYTES || this.view.getUint32(0, true) !== RECORD_MAGIC) {
      throw new RecordingError('bad-format', `${source}: not a tiqs-runner quote file`);
    }
    const version = this.view.getUint16(4, true);
    if (version !== RECORD_VERSION) {
      throw new RecordingError('bad-format', `${source}: format version ${version} unsupported`);
    }
    this.pos = this.view.getUint16(6, true);
    this.baseTime = this.view.getFloat64(8, true);
  }

  /**
   * A reader over a block of whole records cut from a file (no header): times count from
   * the file's `baseTime`; `fileOffset` (the block's place in the file) names bad bytes.
   */
  static block(
    bytes: Uint8Array,
    baseTime: number,
    source = 'recording',
    fileOffset = 0,
  ): RecordReader {
    return new RecordReader(bytes, source, { baseTime, fileOffset });
  }

  /** Moves to the next record; false at the end. */
  next(): boolean {
    const o = this.pos;
    if (o >= this.end) return false;
    const v = this.view;
    const kind = KIND_OF_CODE[v.getUint8(o)];
    if (kind === undefined || o + RECORD_HEADER_BYTES > this.end) {
      throw new RecordingError(
        'bad-format',
        `${this.source}: bad record at byte ${this.fileOffset + o}`,
      );
    }
    const size = recordSize(kind, v.getUint8(o + 1), v.getUint8(o + 2));
    if (o + size > this.end) {
      throw new RecordingError(
        'bad-format',
        `${this.source}: truncated record at byte ${this.fileOffset + o}`,
      );
    }
    this.offset = o;
    this.kind = kind;
    this.time = this.baseTime + v.getUint32(o + 4, true);
    this.token = v.getInt32(o + 8, true);
    this.pos = o + size;
    return true;
  }

  /**
   * A reader over a copy of the current record alone, standing on it: for keeping a
   * record past its block, whose memory the next blocks reuse (`recordBlocks`).
   */
  copyCurrent(): RecordReader {
    const copy = RecordReader.block(
      this.bytes.slice(this.offset, this.pos),
      this.baseTime,
      this.source,
      this.fileOffset + this.offset,
    );
    copy.next();
    return copy;
  }

  /**
   * A reader over this block's bytes from `offset` (one {@link next} returned earlier),
   * standing on that record, without moving this reader or copying: valid as long as
   * this block's memory is (see {@link copyCurrent} to keep it longer).
   */
  recordAt(offset: number): RecordReader {
    const at = RecordReader.block(
      this.bytes.subarray(offset),
      this.baseTime,
      this.source,
      this.fileOffset + offset,
    );
    at.next();
    return at;
  }

  /**
   * Whether the current record has the same bytes as the record at `offset` in `other`,
   * their times aside (kind, depth levels, token and body): the same quote when decoded.
   */
  sameBytesAs(other: RecordReader, offset: number): boolean {
    const a = this.bytes;
    const b = other.bytes;
    const from = this.offset;
    const size = this.pos - from;
    if (offset + size > b.length) return false;
    for (let i = 0; i < size; i++) {
      if (i >= 4 && i < 8) continue; // u32 ms since the file's base time
      if (a[from + i] !== b[offset + i]) return false;
    }
    return true;
  }

  /** Moves to the record at `offset` (one {@link next} returned earlier). */
  seek(offset: number): void {
    this.pos = offset;
    this.next();
  }

  /** The LTP of the current quote record (any mode) without decoding the rest. */
  ltp(): number {
    const b = this.offset + RECORD_HEADER_BYTES;
    const v = this.view;
    switch (this.kind) {
      case 'ltp':
        return v.getInt32(b, true);
      case 'ohlcv':
        return v.getInt32(b + 16, true);
      case 'full':
        return v.getInt32(b + 20, true);
      default:
        return 0;
    }
  }

  /**
   * The day's price band of the current full record, `lower` or `upper` (paise), without
   * decoding the rest; 0 for other kinds, whose quotes carry none.
   */
  limit(side: 'lower' | 'upper'): number {
    if (this.kind !== 'full') return 0;
    return this.view.getInt32(
      this.offset + RECORD_HEADER_BYTES + (side === 'lower' ? 44 : 48),
      true,
    );
  }

  /** Decodes the current quote record into its wire shape (money in paise). */
  quote(): Quote {
    const b = this.offset + RECORD_HEADER_BYTES;
    const v = this.view;
    const token = this.token;
    if (this.kind === 'ltp') {
      const q: LtpQuote = { token, ltp: v.getInt32(b, true), close: v.getInt32(b + 4, true) };
      return q;
    }
    if (this.kind === 'ohlcv') {
      const q: OhlcvQuote = {
        token,
        open: v.getInt32(b, true),
        high: v.getInt32(b + 4, true),
        low: v.getInt32(b + 8, true),
        close: v.getInt32(b + 12, true),
        ltp: v.getInt32(b + 16, true),
        ltt: v.getUint32(b + 20, true),
        oi: v.getFloat64(b + 24, true),
        volume: v.getFloat64(b + 32, true),
      };
      return q;
    }
    if (this.kind !== 'full') {
      throw new RecordingError('bad-format', `${this.source}: record is ${this.kind}, not a quote`);
    }
    const nb = v.getUint8(this.offset + 1);
    const na = v.getUint8(this.offset + 2);
    // The levels are read in loops, not through a closure made per quote: the CLI's
    // bundle (esbuild keepNames) names each such closure with a defineProperty call.
    const bids: DepthEntry[] = new Array(nb);
    let p = b + 100;
    for (let i = 0; i < nb; i++, p += DEPTH_LEVEL_BYTES) bids[i] = depthLevel(v, p);
    const asks: DepthEntry[] = new Array(na);
    for (let i = 0; i < na; i++, p += DEPTH_LEVEL_BYTES) asks[i] = depthLevel(v, p);
    const q: FullQuote = {
      token,
      asks,
      bids,
      avgPrice: v.getInt32(b, true),
      open: v.getInt32(b + 4, true),
      high: v.getInt32(b + 8, true),
      low: v.getInt32(b + 12, true),
      close: v.getInt32(b + 16, true),
      ltp: v.getInt32(b + 20, true),
      ltq: v.getInt32(b + 24, true),
      ltt: v.getUint32(b + 28, true),
      time: v.getUint32(b + 32, true),
      netChange: v.getInt32(b + 36, true),
      netChangeIndicator: v.getInt32(b + 40, true),
      lowerLimit: v.getInt32(b + 44, true),
      upperLimit: v.getInt32(b + 48, true),
      oi: v.getFloat64(b + 52, true),
      oiDayHigh: v.getFloat64(b + 60, true),
      oiDayLow: v.getFloat64(b + 68, true),
      totalBuyQty: v.getFloat64(b + 76, true),
      totalSellQty: v.getFloat64(b + 84, true),
      volume: v.getFloat64(b + 92, true),
    };
    return q;
  }

  /**
   * Decodes the current quote record projected down to `mode` (which its kind must cover):
   * exactly `projectQuote(this.quote(), this.kind, mode)`, without decoding what the
   * projection drops. A backtest whose strategies follow a token's LTP or candles, on a
   * recording of its full quotes, decoded each quote's depth only to drop it (issue 13),
   * until something (the paper venue, at a first order) follows the full quotes too.
   */
  quoteAs(mode: QuoteMode): Quote {
    if (mode === this.kind) return this.quote();
    const full = this.kind === 'full';
    if (!(full || (this.kind === 'ohlcv' && mode === 'ltp'))) {
      throw new RecordingError(
        'bad-format',
        `${this.source}: a ${this.kind} record has no ${mode} quote`,
      );
    }
    const b = this.offset + RECORD_HEADER_BYTES;
    const v = this.view;
    const token = this.token;
    // Offsets as quote() reads them: [open, high, low, close, ltp, ltt, …] of an ohlcv
    // record from 0, of a full record from 4 (after avgPrice), ltt after ltq.
    if (mode === 'ltp') {
      const q: LtpQuote = {
        token,
        ltp: v.getInt32(b + (full ? 20 : 16), true),
        close: v.getInt32(b + (full ? 16 : 12), true),
      };
      return q;
    }
    const q: OhlcvQuote = {
      token,
      open: v.getInt32(b + 4, true),
      high: v.getInt32(b + 8, true),
      low: v.getInt32(b + 12, true),
      close: v.getInt32(b + 16, true),
      ltp: v.getInt32(b + 20, true),
      ltt: v.getUint32(b + 28, true),
      oi: v.getFloat64(b + 52, true),
      volume: v.getFloat64(b + 92, true),
    };
    return q;
  }

  /**
   * The exchange's time of the current quote record, epoch ms, as `sourceTimeOf` takes it
   * from the decoded quote of the record's own mode (`receivedAt` when it carries none).
   */
  sourceTime(receivedAt: number): number {
    const b = this.offset + RECORD_HEADER_BYTES;
    const v = this.view;
    if (this.kind === 'full') {
      const time = v.getUint32(b + 32, true);
      if (time > 0) return time * 1_000;
      const ltt = v.getUint32(b + 28, true);
      if (ltt > 0) return ltt * 1_000;
    } else if (this.kind === 'ohlcv') {
      const ltt = v.getUint32(b + 20, true);
      if (ltt > 0) return ltt * 1_000;
    }
    return receivedAt;
  }

  /** Decodes the current greeks record. */
  greeks(): Greeks {
    if (this.kind !== 'greeks') {
      throw new RecordingError('bad-format', `${this.source}: record is ${this.kind}, not greeks`);
    }
    const b = this.offset + RECORD_HEADER_BYTES;
    const v = this.view;
    return {
      iv: v.getFloat64(b, true),
      delta: v.getFloat64(b + 8, true),
      gamma: v.getFloat64(b + 16, true),
      theta: v.getFloat64(b + 24, true),
      vega: v.getFloat64(b + 32, true),
    };
  }
}

/** The depth level at byte `p`. */
function depthLevel(v: DataView, p: number): DepthEntry {
  return {
    price: v.getInt32(p, true),
    quantity: v.getInt32(p + 4, true),
    orders: v.getInt32(p + 8, true),
  };
}
