import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { zodPath } from '../api/zod-path.ts';
import { RecordingError } from './recording-error.ts';
import { type RecordingMeta, recordingMetaSchema } from './recording-meta.ts';

/** A recording loaded in memory: its meta and the (decompressed) quote file bytes. */
export interface Recording {
  readonly dir: string;
  readonly meta: RecordingMeta;
  readonly bytes: Uint8Array;
}

/**
 * Loads a recording folder (`meta.json` and its quote file, gzip'd or not) into memory.
 *
 * @example
 * ```ts
 * const rec = await readRecording('backtests/data/sample-day');
 * new RecordReader(rec.bytes).next();
 * ```
 */
export async function readRecording(dir: string): Promise<Recording> {
  const metaFile = join(dir, 'meta.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(metaFile, 'utf8'));
  } catch (err) {
    throw new RecordingError('io', `${metaFile}: cannot read the recording's meta`, {
      cause: err,
    });
  }
  const parsed = recordingMetaSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RecordingError(
      'bad-format',
      `${metaFile}: ${zodPath('', issue?.path ?? []).replace(/^\./, '')}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const meta = parsed.data;
  const file = join(dir, meta.quoteFile);
  let bytes: Uint8Array;
  try {
    const data = await readFile(file);
    bytes = data[0] === 0x1f && data[1] === 0x8b ? gunzipSync(data) : data;
  } catch (err) {
    throw new RecordingError('io', `${file}: cannot read the quote file`, { cause: err });
  }
  return { dir, meta, bytes };
}
