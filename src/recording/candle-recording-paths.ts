import { join } from 'node:path';

/** `meta.json` of a recording folder. */
export function candleMetaPath(dir: string): string {
  return join(dir, 'meta.json');
}

/** The folder of one token's chunk files. */
export function candleTokenDir(dir: string, token: number): string {
  return join(dir, 'candles', String(token));
}

/** File name of the chunk covering IST dates `fromDate`..`toDate` (inclusive). */
function candleChunkName(fromDate: string, toDate: string): string {
  return `${fromDate}_${toDate}.csv`;
}

/** Path of one chunk file. */
export function candleChunkPath(
  dir: string,
  token: number,
  fromDate: string,
  toDate: string,
): string {
  return join(candleTokenDir(dir, token), candleChunkName(fromDate, toDate));
}

const CHUNK_NAME = /^(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})\.csv$/;

/** The IST dates a chunk file name covers, or null for any other file (e.g. a `.tmp`). */
export function parseCandleChunkName(name: string): { from: string; to: string } | null {
  const m = CHUNK_NAME.exec(name);
  return m === null ? null : { from: m[1] as string, to: m[2] as string };
}
