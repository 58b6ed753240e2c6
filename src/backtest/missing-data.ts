import { stat } from 'node:fs/promises';
import { toIstIso } from '../domain/ist.ts';
import {
  isCandleRecording,
  readCandleRecordingMeta,
} from '../recording/candle-recording-reader.ts';
import { quoteFileChunks } from '../recording/quote-file-chunks.ts';
import { readRecordingMeta } from '../recording/read-recording-meta.ts';
import { recordBlocks } from '../recording/record-blocks.ts';

/** A token with its symbol, when the instrument master (or the data) knows it. */
interface NamedToken {
  token: number;
  symbol?: string;
}

/** What a backtest's data holds: which tokens, over which span, how many records. */
export interface DataContents {
  kind: 'ticks' | 'candles';
  /** Ascending by token. */
  tokens: NamedToken[];
  startMs: number;
  endMs: number;
  /** Quote records (ticks) or bars (candles). */
  records: number;
}

/** Tokens subscribed that the data never holds, and what it does hold. */
export interface MissingData {
  /** With the instant of each token's first subscription, epoch ms. */
  missing: (NamedToken & { firstSubscribedAt: number })[];
  contents: DataContents;
}

/** Thrown when strategies subscribe to tokens the data does not hold (exit 3). */
export class MissingDataError extends Error {
  override readonly name = 'MissingDataError';

  constructor(readonly report: MissingData) {
    super(describeMissing(report));
  }
}

/**
 * What the recordings of a backtest hold, tick or candle ones alike: a candle
 * recording's meta names its instruments; a tick recording's meta lists its `tokens`
 * (recordings made since it does), else one streamed pass over the record headers (no
 * quote decoded) finds them.
 *
 * @example
 * ```ts
 * const contents = await dataContents(recordingSet.parts);
 * contents.tokens.map((t) => t.token); // [256265, 2885, 3045, ...]
 * ```
 */
export async function dataContents(parts: readonly { dir: string }[]): Promise<DataContents> {
  // Each part's files are read at once (30 days: 30 metas, sequentially ≈ 10 ms of
  // waiting on the thread pool), then folded in the parts' order, as one loop did.
  const settled = await Promise.allSettled(parts.map(({ dir }) => partContents(dir)));
  // A failure is the first part's in order, whichever failed first in time.
  const read = settled.map((r) => {
    if (r.status === 'rejected') throw r.reason;
    return r.value;
  });
  const tokens = new Map<number, string | undefined>();
  let kind: DataContents['kind'] = 'ticks';
  let startMs = Number.POSITIVE_INFINITY;
  let endMs = Number.NEGATIVE_INFINITY;
  let records = 0;
  for (const part of read) {
    startMs = Math.min(startMs, part.startMs);
    endMs = Math.max(endMs, part.endMs);
    records += part.records;
    if (part.kind === 'candles') {
      kind = 'candles';
      for (const [token, symbol] of part.symbols) tokens.set(token, symbol);
      continue;
    }
    // A recording whose meta lists no tokens is scanned, one file at a time.
    const listed = part.tokens ?? (await scannedTokens(part.scan));
    for (const token of listed) if (!tokens.has(token)) tokens.set(token, undefined);
  }
  return {
    kind,
    tokens: [...tokens]
      .sort(([a], [b]) => a - b)
      .map(([token, symbol]) => (symbol === undefined ? { token } : { token, symbol })),
    startMs: Number.isFinite(startMs) ? startMs : 0,
    endMs: Number.isFinite(endMs) ? endMs : 0,
    records,
  };
}

/** One recording folder's span and record count, and its tokens or the file to scan. */
type PartContents = { startMs: number; endMs: number; records: number } & (
  | { kind: 'candles'; symbols: [number, string][] }
  | { kind: 'ticks'; tokens: readonly number[] | undefined; scan: string }
);

async function partContents(dir: string): Promise<PartContents> {
  if (await isCandleRecording(dir)) {
    const { meta } = await readCandleRecordingMeta(dir);
    return {
      kind: 'candles',
      startMs: meta.startMs,
      endMs: meta.endMs,
      records: meta.bars,
      // A token listed with no bars (an option the source has no past for, a range before
      // its data) is data the recording lacks, not data present.
      symbols: meta.instruments
        .filter((i) => meta.barsByToken?.[String(i.token)] !== 0)
        .map((i): [number, string] => [i.token, i.symbol]),
    };
  }
  const { meta, file } = await readRecordingMeta(dir);
  return {
    kind: 'ticks',
    startMs: meta.startMs,
    endMs: meta.endMs,
    records: meta.records,
    tokens: meta.tokens,
    scan: file,
  };
}

/** Tokens found by scanning a quote file, by path, size and mtime: a sweep worker scans once. */
const scans = new Map<string, readonly number[]>();

/** A quote file's tokens: one streamed pass over the record headers, no quote decoded. */
async function scannedTokens(file: string): Promise<readonly number[]> {
  const { size, mtimeMs } = await stat(file);
  const key = `${file}\u0000${size}\u0000${mtimeMs}`;
  const known = scans.get(key);
  if (known !== undefined) return known;
  const found = new Set<number>();
  for await (const block of recordBlocks(quoteFileChunks(file), file)) {
    while (block.next()) found.add(block.token);
  }
  const list = [...found];
  scans.set(key, list);
  return list;
}

/**
 * The subscribed tokens the data does not hold, or undefined when it holds them all.
 * Symbols come from `symbolOf` (the backtest's instrument master), else from the data.
 */
export function findMissing(
  subscribed: ReadonlyMap<number, number>,
  contents: DataContents,
  symbolOf: (token: number) => string | undefined,
): MissingData | undefined {
  const held = new Set(contents.tokens.map((t) => t.token));
  const missing = [...subscribed]
    .filter(([token]) => !held.has(token))
    .sort(([a], [b]) => a - b)
    .map(([token, at]) => {
      const symbol = symbolOf(token);
      return symbol === undefined
        ? { token, firstSubscribedAt: at }
        : { token, symbol, firstSubscribedAt: at };
    });
  if (missing.length === 0) return undefined;
  const contentsNamed: DataContents = {
    ...contents,
    tokens: contents.tokens.map((t) => {
      const symbol = t.symbol ?? symbolOf(t.token);
      return symbol === undefined ? { token: t.token } : { token: t.token, symbol };
    }),
  };
  return { missing, contents: contentsNamed };
}

const named = (t: NamedToken): string =>
  t.symbol === undefined ? String(t.token) : `${t.token} (${t.symbol})`;

/**
 * The problem as text for people: the missing tokens, then what the data holds.
 *
 * @example
 * ```ts
 * process.stderr.write(`${describeMissing(report)}\n`);
 * ```
 */
export function describeMissing(report: MissingData): string {
  const c = report.contents;
  const iso = (ms: number): string => toIstIso(ms).slice(0, 16).replace('T', ' ');
  const span = `${iso(c.startMs)} → ${iso(c.endMs)} IST, ${c.records} ${c.kind === 'candles' ? 'bars' : 'records'}`;
  return [
    `strategies subscribe to ${report.missing.length} token(s) the backtest data does not hold: ${report.missing.map(named).join(', ')}`,
    `the data (${c.kind}, ${span}) holds ${c.tokens.length} token(s): ${c.tokens.map(named).join(', ')}`,
  ].join('\n');
}

/**
 * The backtest's check of its strategies' subscriptions against its data: run once the
 * kernel has started (strategies subscribed) before replaying, and again at the end for
 * tokens first subscribed mid-run. Throws {@link MissingDataError} unless `allow`
 * (`--allow-missing`), which keeps the finding in {@link report} instead.
 *
 * @example
 * ```ts
 * const gaps = new MissingDataCheck(set.parts, watch, (t) => kernel.instruments.byToken(t)?.symbol, false);
 * await gaps.check(); // before play
 * ```
 */
export class MissingDataCheck {
  private contents: DataContents | undefined;
  /** What was missing (all the tokens so far), when `allow` let the run go on. */
  report: MissingData | undefined;

  constructor(
    private readonly parts: readonly { dir: string }[],
    private readonly watch: { tokens(): ReadonlyMap<number, number> },
    private readonly symbolOf: (token: number) => string | undefined,
    private readonly allow: boolean,
  ) {}

  /**
   * Compares every token subscribed so far with the data. `absent`: tokens the data lists
   * but that did not replay (every bar of a candle token outside the calendar's sessions).
   */
  async check(absent: ReadonlySet<number> = new Set()): Promise<void> {
    this.contents ??= await dataContents(this.parts);
    const contents =
      absent.size === 0
        ? this.contents
        : { ...this.contents, tokens: this.contents.tokens.filter((t) => !absent.has(t.token)) };
    const found = findMissing(this.watch.tokens(), contents, this.symbolOf);
    if (found === undefined) return;
    if (!this.allow) throw new MissingDataError(found);
    this.report = found;
  }
}
