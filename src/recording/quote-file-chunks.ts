import { type FileHandle, open } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { RecordingError } from './recording-error.ts';

/** Bytes asked of a gzip'd file, and of gunzip, at a time. */
const CHUNK_BYTES = 1 << 16;
/**
 * Bytes asked of an uncompressed file at a time. Each read is a trip through libuv's
 * thread pool and back through the event loop: in 64 KiB reads a 30-day CLI backtest
 * (126 MB) spent ≈ 0.3 s of its ≈ 2.4 s idle, waiting for reads that were already
 * double-buffered. Larger reads wait less, but a buffer much larger than the CPU's cache
 * makes the decode slower: five interleaved rounds (medians) of the CLI and of
 * bench/helpers/process-floor.ts read 2.42 / 0.49 s at 64 KiB, 2.24 / 0.47 s at 256 KiB,
 * 2.21 / 0.50 s at 512 KiB and 2.18 / 0.59 s at 1 MiB.
 */
const RAW_CHUNK_BYTES = 1 << 18;

/**
 * A quote file's bytes, decompressed if gzip'd (told by its first two bytes), as chunks
 * (256 KiB of a plain file, about 64 KiB decompressed) read on demand: a slow consumer
 * holds the file back rather than the file filling memory. Stopping early closes the file. Failures are `RecordingError`s
 * (`io`) naming the file.
 *
 * An uncompressed file is read into two buffers in turn, the next chunk while the
 * consumer takes this one: a chunk is valid until the next one is asked for (copy it to
 * keep it; `recordBlocks` does), and a long file costs no allocation a chunk.
 *
 * @example
 * ```ts
 * for await (const block of recordBlocks(quoteFileChunks(file), file)) replay(block);
 * ```
 */
export async function* quoteFileChunks(file: string): AsyncGenerator<Uint8Array, void, undefined> {
  try {
    const handle = await open(file);
    let gzip: boolean;
    try {
      const magic = Buffer.alloc(2);
      const { bytesRead } = await handle.read(magic, 0, 2, 0);
      gzip = bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
    } catch (err) {
      await handle.close();
      throw err;
    }
    if (!gzip) {
      yield* rawChunks(handle);
      return;
    }
    const raw = handle.createReadStream({ start: 0, highWaterMark: CHUNK_BYTES });
    const bytes = pipeline(raw, createGunzip({ chunkSize: CHUNK_BYTES }), () => {
      // Errors reach the consumer through the iteration below.
    });
    for await (const chunk of bytes) yield chunk as Buffer;
  } catch (err) {
    if (err instanceof RecordingError) throw err;
    throw new RecordingError('io', `${file}: cannot read the quote file`, { cause: err });
  }
}

/**
 * The file's bytes in chunks of {@link RAW_CHUNK_BYTES}, read into two buffers in turn: the
 * next read is under way while the consumer has the chunk before it. Closes the file.
 */
async function* rawChunks(handle: FileHandle): AsyncGenerator<Uint8Array, void, undefined> {
  const buffers = [
    Buffer.allocUnsafeSlow(RAW_CHUNK_BYTES),
    Buffer.allocUnsafeSlow(RAW_CHUNK_BYTES),
  ];
  let position = 0;
  let turn = 0;
  let reading = handle.read(buffers[0] as Buffer, 0, RAW_CHUNK_BYTES, 0);
  try {
    for (;;) {
      const { bytesRead, buffer } = await reading;
      if (bytesRead === 0) return;
      position += bytesRead;
      turn ^= 1;
      reading = handle.read(buffers[turn] as Buffer, 0, RAW_CHUNK_BYTES, position);
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    // A read still under way (the consumer stopped early) settles before the file closes.
    await reading.catch(() => undefined);
    await handle.close();
  }
}
