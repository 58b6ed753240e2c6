import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { readRecordingMeta } from './read-recording-meta.ts';
import { RecordingError } from './recording-error.ts';
import type { RecordingMeta } from './recording-meta.ts';

/** A recording loaded in memory: its meta and the (decompressed) quote file bytes. */
export interface Recording {
  readonly dir: string;
  readonly meta: RecordingMeta;
  readonly bytes: Uint8Array;
}

/**
 * Loads a recording folder (`meta.json` and its quote file, gzip'd or not) into memory.
 * Tools and the polled `ReplaySource` use it; a backtest streams the quote file instead
 * (`openRecordings`), so its memory does not grow with the recording's length.
 *
 * @example
 * ```ts
 * const rec = await readRecording('backtests/data/sample-day');
 * new RecordReader(rec.bytes).next();
 * ```
 */
export async function readRecording(dir: string): Promise<Recording> {
  const { meta, file } = await readRecordingMeta(dir);
  let bytes: Uint8Array;
  try {
    const data = await readFile(file);
    bytes = data[0] === 0x1f && data[1] === 0x8b ? gunzipSync(data) : data;
  } catch (err) {
    throw new RecordingError('io', `${file}: cannot read the quote file`, { cause: err });
  }
  return { dir, meta, bytes };
}
