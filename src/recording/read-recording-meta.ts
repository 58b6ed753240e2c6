import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { zodPath } from '../api/zod-path.ts';
import { RecordingError } from './recording-error.ts';
import { type RecordingMeta, recordingMetaSchema } from './recording-meta.ts';

/** A recording folder's meta and where its quote file is; no records read yet. */
export interface RecordingPart {
  readonly dir: string;
  readonly meta: RecordingMeta;
  /** Path of the quote file (`quotes.bin` or gzip'd `quotes.bin.gz`). */
  readonly file: string;
}

/**
 * Reads and checks a recording folder's `meta.json`: what the quote file cannot hold
 * (calendar, option chains, the covered span) and the quote file's name.
 *
 * @example
 * ```ts
 * const part = await readRecordingMeta('backtests/data/sample-day');
 * part.meta.startMs; // first instant covered
 * ```
 */
export async function readRecordingMeta(dir: string): Promise<RecordingPart> {
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
  return { dir, meta: parsed.data, file: join(dir, parsed.data.quoteFile) };
}
