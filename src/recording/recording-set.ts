import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Holidays } from '../api/schemas/utilities.ts';
import { quoteFileChunks } from './quote-file-chunks.ts';
import { type RecordingPart, readRecordingMeta } from './read-recording-meta.ts';
import { recordBlocks } from './record-blocks.ts';
import type { RecordReader } from './record-reader.ts';
import { RecordingError } from './recording-error.ts';
import type { RecordingMeta } from './recording-meta.ts';

/** Records to replay, a block at a time (see `recordBlocks`), in time order. */
export interface RecordStream {
  /** Name for messages. */
  readonly dir: string;
  /** A fresh pass over the records; each block holds whole instants. */
  blocks(): AsyncGenerator<RecordReader, void, undefined>;
}

/** One or more recordings, one after the other in time, read as one. */
export interface RecordingSet extends RecordStream {
  /** The parts' metas merged: the whole span, every calendar and chain snapshot. */
  readonly meta: RecordingMeta;
  /** The recordings, earliest first. */
  readonly parts: readonly RecordingPart[];
}

/**
 * Opens recordings for streaming. Each path is a recording folder (with `meta.json`) or
 * a folder of recording folders (say one per day), every one of them taken. Reads each
 * `meta.json` (no records yet) and orders the recordings by start, so several days recorded apart (Friday, then Monday)
 * replay as one, across the weekend or holidays between them; the replay's virtual clock
 * goes straight from one recorded instant to the next, and the kernel's calendar (the
 * holidays the recordings carry) says when the market is open in between. Recordings
 * that overlap in time are refused (`RecordingError`, `overlap`): their records would
 * interleave.
 *
 * The records themselves are read only when {@link RecordStream.blocks} is iterated, a
 * chunk at a time, so memory does not grow with the recordings' length.
 *
 * @example
 * ```ts
 * const set = await openRecordings(['data/2026-11-20', 'data/2026-11-23']);
 * for await (const block of set.blocks()) while (block.next()) count += 1;
 * ```
 */
export async function openRecordings(dirs: string | readonly string[]): Promise<RecordingSet> {
  const named = typeof dirs === 'string' ? [dirs] : dirs;
  const list = (await Promise.all(named.map((d) => recordingDirs(d)))).flat();
  if (list.length === 0) throw new RecordingError('not-recorded', 'no recording named');
  const parts = (await Promise.all(list.map((d) => readRecordingMeta(d)))).sort(
    (a, b) => a.meta.startMs - b.meta.startMs,
  );
  for (let i = 1; i < parts.length; i++) {
    const before = parts[i - 1] as RecordingPart;
    const part = parts[i] as RecordingPart;
    if (part.meta.startMs < before.meta.endMs) {
      throw new RecordingError(
        'overlap',
        `${part.dir} (from ${part.meta.start}) overlaps ${before.dir} (to ${before.meta.end})`,
      );
    }
  }
  return {
    dir: parts.map((p) => p.dir).join(' + '),
    meta: mergeMeta(parts),
    parts,
    async *blocks() {
      for (const part of parts) yield* recordBlocks(quoteFileChunks(part.file), part.file);
    },
  };
}

/** The folder itself if it is a recording, else its subfolders that are, by name. */
async function recordingDirs(dir: string): Promise<string[]> {
  if (existsSync(join(dir, 'meta.json'))) return [dir];
  let entries: { name: string; isDirectory(): boolean }[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    throw new RecordingError('io', `${dir}: not a recording folder`, { cause: err });
  }
  const dirs = entries
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'meta.json')))
    .map((e) => join(dir, e.name))
    .sort();
  if (dirs.length === 0) {
    throw new RecordingError('not-recorded', `${dir}: no meta.json, nor recording folders in it`);
  }
  return dirs;
}

/** The metas of parts in time order as one: the whole span, later snapshots winning. */
function mergeMeta(parts: readonly RecordingPart[]): RecordingMeta {
  const first = (parts[0] as RecordingPart).meta;
  if (parts.length === 1) return first;
  const last = (parts[parts.length - 1] as RecordingPart).meta;
  const calendars = parts.flatMap((p) => (p.meta.holidays === null ? [] : [p.meta.holidays]));
  const holidays: Holidays | null =
    calendars.length === 0
      ? null
      : {
          holidays: Object.assign({}, ...calendars.map((c) => c.holidays)),
          specialTradingDays: Object.assign({}, ...calendars.map((c) => c.specialTradingDays)),
        };
  return {
    ...first,
    endMs: last.endMs,
    end: last.end,
    records: parts.reduce((n, p) => n + p.meta.records, 0),
    holidays,
    chainSymbols: parts.flatMap((p) => p.meta.chainSymbols),
    chains: parts.flatMap((p) => p.meta.chains),
    // The union, only when every part lists its tokens (else a scan must find them).
    tokens: parts.every((p) => p.meta.tokens !== undefined)
      ? [...new Set(parts.flatMap((p) => p.meta.tokens ?? []))].sort((a, b) => a - b)
      : undefined,
  };
}
