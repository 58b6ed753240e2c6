import { open } from 'node:fs/promises';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { RecordingError } from './recording-error.ts';

/** Bytes asked of the file, and of gunzip, at a time. */
const CHUNK_BYTES = 1 << 16;

/**
 * A quote file's bytes, decompressed if gzip'd (told by its first two bytes), as chunks
 * of about 64 KiB read on demand: a slow consumer holds the file back rather than the
 * file filling memory. Stopping early closes the file. Failures are `RecordingError`s
 * (`io`) naming the file.
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
    const raw = handle.createReadStream({ start: 0, highWaterMark: CHUNK_BYTES });
    const bytes = gzip
      ? pipeline(raw, createGunzip({ chunkSize: CHUNK_BYTES }), () => {
          // Errors reach the consumer through the iteration below.
        })
      : raw;
    for await (const chunk of bytes) yield chunk as Buffer;
  } catch (err) {
    if (err instanceof RecordingError) throw err;
    throw new RecordingError('io', `${file}: cannot read the quote file`, { cause: err });
  }
}
