import {
  HEADER_BYTES,
  KIND_OF_CODE,
  RECORD_HEADER_BYTES,
  RECORD_MAGIC,
  RECORD_VERSION,
  recordSize,
} from './record-format.ts';
import { RecordReader } from './record-reader.ts';
import { RecordingError } from './recording-error.ts';

/**
 * Cuts a quote file arriving in chunks (a file stream, a gunzip stream) into blocks of
 * whole records, each yielded as a {@link RecordReader} over that block alone, so only
 * about one chunk of the file is in memory at a time, however long the recording.
 *
 * A block never splits an instant: the records of the last instant seen in a chunk wait
 * for the next chunk (or the end of the file), so whoever replays a block publishes an
 * instant's records together, as it would from the whole file in memory. A chunk that is
 * all one instant is held and grown until a later instant or the end arrives.
 *
 * Nothing is read ahead: the next chunk is asked for only when the block before it has
 * been handed over and the consumer asks for the next one.
 *
 * Memory is reused: each chunk is copied (after what was held back) into one of two
 * buffers in turn, so a chunk's own buffer is free again once the next is asked for, and
 * a block is valid until the next block is asked for, no longer: an instant that spans
 * several chunks joins into both buffers in turn before it can be handed out, the one
 * the previous block lies in too (so no look-ahead may keep a block while asking for
 * the next). Whoever keeps a
 * record longer copies it (`ReplayMarket`'s catch-up does). Fresh buffers for every
 * chunk were ~250 MB of 64 KiB allocations on 30 days, which the C allocator kept as
 * ~12 MiB of resident memory (issue 13).
 *
 * @example
 * ```ts
 * for await (const block of recordBlocks(createReadStream(file), file)) {
 *   while (block.next()) total += block.ltp();
 * }
 * ```
 */
export async function* recordBlocks(
  chunks: AsyncIterable<Uint8Array>,
  source = 'recording',
): AsyncGenerator<RecordReader, void, undefined> {
  let held: Uint8Array = new Uint8Array(0);
  /** Bytes of the file before `held[0]`, for error messages. */
  let consumed = 0;
  let baseTime: number | undefined;
  const slabs = new Slabs();
  for await (const chunk of chunks) {
    held = slabs.join(held, chunk);
    if (baseTime === undefined) {
      if (held.length < HEADER_BYTES) continue;
      const header = readHeader(held, source);
      if (held.length < header.size) continue;
      baseTime = header.baseTime;
      held = held.subarray(header.size);
      consumed = header.size;
    }
    const cut = instantCut(held, consumed, source);
    if (cut === 0) continue;
    yield RecordReader.block(held.subarray(0, cut), baseTime, source, consumed);
    held = held.subarray(cut);
    consumed += cut;
  }
  if (baseTime === undefined) {
    throw new RecordingError('bad-format', `${source}: not a tiqs-runner quote file`);
  }
  if (held.length === 0) return;
  // The end of the file: the last instant is complete; a partial record is not.
  const whole = wholeRecords(held, consumed, source).end;
  if (whole < held.length) {
    throw new RecordingError(
      'bad-format',
      `${source}: truncated record at byte ${consumed + whole}`,
    );
  }
  yield RecordReader.block(held, baseTime, source, consumed);
}

/** The file header's base time and size, checked as {@link RecordReader} checks it. */
function readHeader(bytes: Uint8Array, source: string): { baseTime: number; size: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== RECORD_MAGIC) {
    throw new RecordingError('bad-format', `${source}: not a tiqs-runner quote file`);
  }
  const version = view.getUint16(4, true);
  if (version !== RECORD_VERSION) {
    throw new RecordingError('bad-format', `${source}: format version ${version} unsupported`);
  }
  return { baseTime: view.getFloat64(8, true), size: view.getUint16(6, true) };
}

/**
 * Where the whole records in `bytes` end, and where the run of records sharing the last
 * whole record's time begins (0 when they all share it).
 */
function wholeRecords(
  bytes: Uint8Array,
  fileOffset: number,
  source: string,
): { end: number; lastInstant: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let o = 0;
  let lastInstant = 0;
  let lastTime = -1;
  while (o + RECORD_HEADER_BYTES <= bytes.length) {
    const kind = KIND_OF_CODE[view.getUint8(o)];
    if (kind === undefined) {
      throw new RecordingError('bad-format', `${source}: bad record at byte ${fileOffset + o}`);
    }
    const size = recordSize(kind, view.getUint8(o + 1), view.getUint8(o + 2));
    if (o + size > bytes.length) break;
    const time = view.getUint32(o + 4, true);
    if (time !== lastTime) {
      lastTime = time;
      lastInstant = o;
    }
    o += size;
  }
  return { end: o, lastInstant };
}

/** How many leading bytes form whole instants, leaving the last (maybe unfinished) one. */
function instantCut(bytes: Uint8Array, fileOffset: number, source: string): number {
  return wholeRecords(bytes, fileOffset, source).lastInstant;
}

/**
 * Two buffers used in turn: {@link join} writes into the one not written last, so what
 * was handed out from the other (the block being replayed) stays as it is.
 */
class Slabs {
  private readonly slabs: Uint8Array[] = [new Uint8Array(0), new Uint8Array(0)];
  private turn = 0;

  /** `a` then `b`, in the next buffer (grown when they do not fit). */
  join(a: Uint8Array, b: Uint8Array): Uint8Array {
    this.turn ^= 1;
    const size = a.length + b.length;
    let slab = this.slabs[this.turn] as Uint8Array;
    if (slab.length < size) {
      slab = new Uint8Array(Math.max(size, 2 * b.length));
      this.slabs[this.turn] = slab;
    }
    slab.set(a, 0);
    slab.set(b, a.length);
    return slab.subarray(0, size);
  }
}
