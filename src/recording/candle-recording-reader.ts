import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { zodPath } from '../api/zod-path.ts';
import type { Candle, CandleInterval } from '../domain/candle.ts';
import { CANDLE_CHUNK_HEADER, parseCandleRow } from './candle-chunk-csv.ts';
import {
  CANDLE_RECORDING_FORMAT,
  type CandleRecordingMeta,
  candleRecordingMetaSchema,
} from './candle-recording-meta.ts';
import { candleMetaPath, candleTokenDir, parseCandleChunkName } from './candle-recording-paths.ts';
import { RecordingError } from './recording-error.ts';

/** A candle recording folder and its checked meta. */
export interface CandleRecordingPart {
  readonly dir: string;
  readonly meta: CandleRecordingMeta;
}

async function readMetaJson(dir: string): Promise<unknown> {
  const file = candleMetaPath(dir);
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    const missing = (err as NodeJS.ErrnoException).code === 'ENOENT';
    throw new RecordingError(
      missing ? 'not-recorded' : 'bad-format',
      `${file}: ${missing ? 'no meta.json (not a recording)' : 'cannot read the recording meta'}`,
      { cause: err },
    );
  }
}

/**
 * Reads and checks a candle recording's `meta.json`. Throws RecordingError `not-recorded`
 * when there is none, `bad-format` (with the path and the bad field) when it is not a
 * candle recording's.
 *
 * @example
 * ```ts
 * const { meta } = await readCandleRecordingMeta('backtests/data/sbin-2025');
 * meta.interval; // '1m'
 * ```
 */
export async function readCandleRecordingMeta(dir: string): Promise<CandleRecordingPart> {
  const parsed = candleRecordingMetaSchema.safeParse(await readMetaJson(dir));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = zodPath('', issue?.path ?? []).replace(/^\./, '');
    throw new RecordingError(
      'bad-format',
      `${candleMetaPath(dir)}: ${field}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return { dir, meta: parsed.data };
}

/** True when `dir/meta.json` exists and says `format: 'tiqs-runner-candles'`. */
export async function isCandleRecording(dir: string): Promise<boolean> {
  try {
    const raw = JSON.parse(await readFile(candleMetaPath(dir), 'utf8')) as { format?: unknown };
    return raw?.format === CANDLE_RECORDING_FORMAT;
  } catch {
    return false;
  }
}

/** One token's complete chunk files, in name (= date) order; `.tmp` leftovers are skipped. */
async function listCandleChunks(
  dir: string,
  token: number,
): Promise<{ file: string; from: string; to: string }[]> {
  let names: string[];
  try {
    names = await readdir(candleTokenDir(dir, token));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new RecordingError('io', `${candleTokenDir(dir, token)}: cannot list`, { cause: err });
  }
  return names.sort().flatMap((name) => {
    const span = parseCandleChunkName(name);
    return span === null ? [] : [{ file: join(candleTokenDir(dir, token), name), ...span }];
  });
}

async function* chunkFileRows(
  file: string,
  token: number,
  interval: CandleInterval,
): AsyncGenerator<Candle> {
  const lines = createInterface({
    input: createReadStream(file),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  let lineNo = 0;
  try {
    for await (const line of lines) {
      lineNo += 1;
      if (lineNo === 1) {
        if (line !== CANDLE_CHUNK_HEADER)
          throw new RecordingError('bad-format', `${file}:1: header is not ${CANDLE_CHUNK_HEADER}`);
        continue;
      }
      if (line === '') continue;
      yield parseCandleRow(line, token, interval, `${file}:${lineNo}`);
    }
  } finally {
    lines.close();
  }
}

/**
 * Streams one token's bars from a candle recording, chunk files in name order, line by
 * line (never a whole year in memory). Each candle has `historical: false` and `end` =
 * start + interval (a session's close is not known here). Throws RecordingError
 * `bad-format` naming file and line for a bad row or bars out of time order.
 *
 * @example
 * ```ts
 * for await (const c of candleRows('backtests/data/sbin-2025', 3045)) console.log(c.close);
 * ```
 */
export async function* candleRows(dir: string, token: number): AsyncGenerator<Candle> {
  const { meta } = await readCandleRecordingMeta(dir);
  let last = Number.NEGATIVE_INFINITY;
  for (const chunk of await listCandleChunks(dir, token)) {
    for await (const candle of chunkFileRows(chunk.file, token, meta.interval)) {
      if (candle.start <= last)
        throw new RecordingError(
          'bad-format',
          `${chunk.file}: bar at ${new Date(candle.start).toISOString()} is not after the previous bar (overlapping chunks?)`,
        );
      last = candle.start;
      yield candle;
    }
  }
}
