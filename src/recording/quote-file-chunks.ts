import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { RecordingError } from './recording-error.ts';

/** Bytes asked of a gzip'd file, and of gunzip, at a time. */
const CHUNK_BYTES = 1 << 16;
/**
 * Bytes read from an uncompressed file at a time. A buffer much larger than the CPU's
 * cache makes the decode slower: five interleaved rounds (medians) of the CLI and of
 * bench/helpers/process-floor.ts read 2.42 / 0.49 s at 64 KiB, 2.24 / 0.47 s at 256 KiB,
 * 2.21 / 0.50 s at 512 KiB and 2.18 / 0.59 s at 1 MiB (then read through the thread pool).
 */
const RAW_CHUNK_BYTES = 1 << 18;

/**
 * A quote file's bytes, decompressed if gzip'd (told by its first two bytes), as chunks
 * (256 KiB of a plain file, about 64 KiB decompressed) read on demand: a slow consumer
 * holds the file back rather than the file filling memory. Stopping early closes the
 * file. Failures are `RecordingError`s (`io`) naming the file.
 *
 * An uncompressed file is read synchronously into two buffers in turn: a chunk is valid
 * until the next one is asked for (copy it to keep it; `recordBlocks` does),
 * and a long file costs no allocation a chunk. Each chunk is handed over after one
 * event-loop turn (`setImmediate`), so timers, signals and IPC of the process are served
 * between chunks as when the reads went through libuv's thread pool.
 *
 * Why not the thread pool: a read there is a trip to a pool thread and back, and on two
 * cores busy with the replay and V8's own helper threads that thread often waited for a
 * core. With the next chunk always already asked for, the 30-day replay still sat idle
 * ≈ 50 ms of its ≈ 680 ms (CPU profile, four warm runs); synchronous reads of a file in
 * the page cache take microseconds (24 November 2026, A/B of the two builds in one
 * series, three rounds of five runs in a process: 7–8% less wall time without the turn,
 * 5% with it, the first run of a process ≈ 10% faster). A file not yet in the page cache
 * is read without overlap with the replay: the replay waits as long as the disk, as it
 * did whenever the read-ahead had not finished.
 *
 * @example
 * ```ts
 * for await (const block of recordBlocks(quoteFileChunks(file), file)) replay(block);
 * ```
 */
export async function* quoteFileChunks(file: string): AsyncGenerator<Uint8Array, void, undefined> {
  try {
    const fd = openSync(file, 'r');
    let gzip: boolean;
    try {
      const magic = Buffer.alloc(2);
      const bytesRead = readSync(fd, magic, 0, 2, 0);
      gzip = bytesRead === 2 && magic[0] === 0x1f && magic[1] === 0x8b;
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    if (!gzip) {
      yield* rawChunks(fd);
      return;
    }
    // The stream owns the descriptor from here and closes it (also when stopped early).
    const raw = createReadStream('', { fd, start: 0, highWaterMark: CHUNK_BYTES });
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
 * The file's bytes in chunks of {@link RAW_CHUNK_BYTES}, read into two buffers in turn,
 * one event-loop turn before each. Closes the file, also when the consumer stops early.
 */
async function* rawChunks(fd: number): AsyncGenerator<Uint8Array, void, undefined> {
  const buffers = [
    Buffer.allocUnsafeSlow(RAW_CHUNK_BYTES),
    Buffer.allocUnsafeSlow(RAW_CHUNK_BYTES),
  ];
  let position = 0;
  let turn = 0;
  try {
    for (;;) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      const buffer = buffers[turn] as Buffer;
      const bytesRead = readSync(fd, buffer, 0, RAW_CHUNK_BYTES, position);
      if (bytesRead === 0) return;
      position += bytesRead;
      turn ^= 1;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    closeSync(fd);
  }
}
