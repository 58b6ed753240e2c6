import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DAY_MS, IST_OFFSET_MS, toIstIso } from '../domain/ist.ts';
import { CANDLE_CHUNK_HEADER, type CandleBar, formatCandleRow } from './candle-chunk-csv.ts';
import {
  CANDLE_RECORDING_FORMAT,
  type CandleInstrument,
  type CandleRecordingMeta,
} from './candle-recording-meta.ts';
import { CandleRecordingMismatch } from './candle-recording-mismatch.ts';
import { candleChunkPath, candleMetaPath, candleTokenDir } from './candle-recording-paths.ts';
import { readCandleRecordingMeta } from './candle-recording-reader.ts';
import { type CandleRecordingSummary, scanCandleRecording } from './candle-recording-scan.ts';

/** What a download or import is about to write. */
export type CandleRecordingInit = Pick<
  CandleRecordingMeta,
  'interval' | 'from' | 'to' | 'instruments' | 'holidays' | 'source' | 'note'
>;

/**
 * How an existing folder is treated: `resume` (history) requires the same interval,
 * tokens and range and keeps the chunks present; `extend` (import) requires the same
 * interval and adds or replaces the given tokens, widening the range.
 */
export type CandleOpenMode = 'resume' | 'extend';

/** Fields `finish` may set, or a function of what the folder holds. */
export type CandleMetaPatch =
  | Partial<Pick<CandleRecordingMeta, 'holidays' | 'note'>>
  | ((summary: CandleRecordingSummary) => Partial<Pick<CandleRecordingMeta, 'holidays' | 'note'>>);

/** Writes `text` to `file` through `file.tmp` and a rename, so a file that exists is whole. */
async function writeAtomic(file: string, text: string): Promise<void> {
  await writeFile(`${file}.tmp`, text);
  await rename(`${file}.tmp`, file);
}

function dayStartMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`) - IST_OFFSET_MS;
}

function sameTokens(a: readonly CandleInstrument[], b: readonly CandleInstrument[]): boolean {
  const key = (l: readonly CandleInstrument[]) =>
    l
      .map((i) => i.token)
      .sort((x, y) => x - y)
      .join(',');
  return key(a) === key(b);
}

/**
 * Writes a candle recording (/work/candle-format.md): meta first with `complete: false`,
 * one CSV file per chunk (written whole or not at all), meta again on `finish`.
 *
 * @example
 * ```ts
 * const w = await CandleRecordingWriter.open(dir, init, 'resume');
 * if (!(await w.hasChunk(3045, '2025-01-01', '2025-01-31'))) await w.writeChunk(3045, '2025-01-01', '2025-01-31', bars);
 * await w.finish({});
 * ```
 */
export class CandleRecordingWriter {
  private constructor(
    readonly dir: string,
    private meta: CandleRecordingMeta,
    /** The folder's meta before this writer opened it; null for a new folder. */
    readonly previous: CandleRecordingMeta | null,
  ) {}

  /** Opens `dir` for writing, checking an existing recording against `init` (see {@link CandleOpenMode}). */
  static async open(
    dir: string,
    init: CandleRecordingInit,
    mode: CandleOpenMode,
  ): Promise<CandleRecordingWriter> {
    let meta: CandleRecordingMeta = {
      format: CANDLE_RECORDING_FORMAT,
      version: 1,
      ...init,
      startMs: 0,
      endMs: 0,
      start: '',
      end: '',
      bars: 0,
      complete: false,
    };
    const old = await existingMeta(dir);
    if (old !== null) meta = merged(dir, old, meta, mode);
    const writer = new CandleRecordingWriter(dir, withAskedSpan(meta), old);
    await mkdir(dir, { recursive: true });
    await writer.writeMeta();
    return writer;
  }

  /** The meta as it will be written. */
  get current(): CandleRecordingMeta {
    return this.meta;
  }

  /** True when the chunk file of `token` for these IST dates exists (so it is complete). */
  async hasChunk(token: number, fromDate: string, toDate: string): Promise<boolean> {
    return access(candleChunkPath(this.dir, token, fromDate, toDate)).then(
      () => true,
      () => false,
    );
  }

  /** Writes one chunk file, bars in time order; an empty list marks the chunk done. Returns the bar count. */
  async writeChunk(
    token: number,
    fromDate: string,
    toDate: string,
    bars: Iterable<CandleBar>,
  ): Promise<number> {
    const lines = [CANDLE_CHUNK_HEADER];
    for (const bar of bars) lines.push(formatCandleRow(bar));
    await mkdir(candleTokenDir(this.dir, token), { recursive: true });
    await writeAtomic(candleChunkPath(this.dir, token, fromDate, toDate), `${lines.join('\n')}\n`);
    return lines.length - 1;
  }

  /** Drops every chunk of `token` (an import replacing its earlier import). */
  async dropToken(token: number): Promise<void> {
    await rm(candleTokenDir(this.dir, token), { recursive: true, force: true });
  }

  /** Writes another file of the folder (e.g. `instruments.csv`) whole or not at all. */
  async writeFile(name: string, text: string): Promise<void> {
    await writeAtomic(join(this.dir, name), text);
  }

  /** Counts what the folder holds, sets the span and bar count, marks it complete. */
  async finish(patch: CandleMetaPatch = {}): Promise<CandleRecordingMeta> {
    const summary = await scanCandleRecording(this.dir, this.meta);
    const extra = typeof patch === 'function' ? patch(summary) : patch;
    const span =
      summary.bars === 0
        ? withAskedSpan(this.meta)
        : { startMs: summary.firstStart, endMs: summary.lastEnd };
    this.meta = {
      ...this.meta,
      ...extra,
      startMs: span.startMs,
      endMs: span.endMs,
      start: toIstIso(span.startMs),
      end: toIstIso(span.endMs),
      bars: summary.bars,
      barsByToken: Object.fromEntries([...summary.barsByToken].map(([t, n]) => [String(t), n])),
      complete: true,
    };
    await this.writeMeta();
    return this.meta;
  }

  private async writeMeta(): Promise<void> {
    await writeAtomic(candleMetaPath(this.dir), `${JSON.stringify(this.meta, null, 2)}\n`);
  }
}

async function existingMeta(dir: string): Promise<CandleRecordingMeta | null> {
  let raw: string;
  try {
    raw = await readFile(candleMetaPath(dir), 'utf8');
  } catch {
    return null;
  }
  let format: unknown;
  try {
    format = (JSON.parse(raw) as { format?: unknown })?.format;
  } catch (err) {
    throw new CandleRecordingMismatch(
      `${candleMetaPath(dir)} is not readable JSON; choose another --out`,
      {
        cause: err,
      },
    );
  }
  if (format !== CANDLE_RECORDING_FORMAT)
    throw new CandleRecordingMismatch(
      `${dir} holds a ${String(format)} recording, not candles; choose another --out`,
    );
  return (await readCandleRecordingMeta(dir)).meta;
}

function merged(
  dir: string,
  old: CandleRecordingMeta,
  fresh: CandleRecordingMeta,
  mode: CandleOpenMode,
): CandleRecordingMeta {
  const clash = (what: string, had: string, asked: string) =>
    new CandleRecordingMismatch(
      `${dir} already holds ${what} ${had}, not ${asked}; use another --out or the same ${what}`,
    );
  if (old.interval !== fresh.interval) throw clash('interval', old.interval, fresh.interval);
  if (mode === 'extend') {
    // Finishing it would mark the download complete and turn its missing days into holidays.
    if (!old.complete && old.source !== 'import')
      throw new CandleRecordingMismatch(
        `${dir} holds an unfinished history download (complete: false); rerun history into it first, or use another --out`,
      );
    const tokens = new Set(fresh.instruments.map((i) => i.token));
    // The folder keeps its source; a token from elsewhere says its own (nothing is relabelled).
    const own = (i: CandleInstrument, source: CandleRecordingMeta['source']): CandleInstrument =>
      i.source === undefined && source !== old.source ? { ...i, source } : i;
    return {
      ...fresh,
      source: old.source,
      from: [old.from, fresh.from].sort()[0] ?? fresh.from,
      to: [old.to, fresh.to].sort()[1] ?? fresh.to,
      instruments: [
        ...old.instruments.filter((i) => !tokens.has(i.token)),
        ...fresh.instruments.map((i) => own(i, fresh.source)),
      ],
      holidays: fresh.holidays ?? old.holidays,
      note: fresh.note ?? old.note,
    };
  }
  const list = (m: CandleRecordingMeta) => m.instruments.map((i) => i.token).join(',');
  if (!sameTokens(old.instruments, fresh.instruments))
    throw clash('tokens', list(old), list(fresh));
  if (old.from !== fresh.from || old.to !== fresh.to)
    throw clash('range', `${old.from}..${old.to}`, `${fresh.from}..${fresh.to}`);
  return fresh;
}

/** The span asked (`from` 00:00 IST .. the day after `to`), for a meta with no bars yet. */
function withAskedSpan(meta: CandleRecordingMeta): CandleRecordingMeta {
  const startMs = dayStartMs(meta.from);
  const endMs = dayStartMs(meta.to) + DAY_MS;
  return { ...meta, startMs, endMs, start: toIstIso(startMs), end: toIstIso(endMs) };
}
