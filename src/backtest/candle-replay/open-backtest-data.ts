import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { TradingCalendar } from '../../calendar/trading-calendar.ts';
import type { CandleInterval } from '../../domain/candle.ts';
import {
  type CandleRecordingPart,
  isCandleRecording,
  readCandleRecordingMeta,
} from '../../recording/candle-recording-reader.ts';
import { RecordingError } from '../../recording/recording-error.ts';
import type { RecordingMeta } from '../../recording/recording-meta.ts';
import { openRecordings, type RecordingSet } from '../../recording/recording-set.ts';
import { type CandleSeries, type CandleSkips, candleRecordStream } from './candle-stream.ts';
import { mergeCandleHolidays } from './merge-candle-holidays.ts';

/** What a candle replay knows beyond its records: the bars' interval, tokens and calendar. */
export interface CandleData {
  readonly interval: CandleInterval;
  readonly parts: readonly CandleRecordingPart[];
  readonly series: readonly CandleSeries[];
  readonly calendar: TradingCalendar;
  /** Bars left out for falling outside every session (known once the replay is over). */
  readonly skipped: CandleSkips;
}

/** A backtest's data: recorded ticks, or candles replayed as synthesised quotes. */
export type BacktestData =
  | { readonly kind: 'ticks'; readonly set: RecordingSet }
  | { readonly kind: 'candles'; readonly set: RecordingSet; readonly candles: CandleData };

/**
 * Opens what `backtest.data` names: a recording folder, or a folder of them. Tick
 * recordings open as before (`openRecordings`); candle recordings (meta `format`
 * `tiqs-runner-candles`) open as a {@link RecordingSet} whose records are synthesised
 * from the bars ({@link candleRecordStream}) and whose meta carries the span and the
 * calendar, so `ReplayMarket` and `ReplaySource` take them unchanged. Mixing both kinds,
 * or candle recordings of different intervals, is refused (`RecordingError`).
 *
 * @example
 * ```ts
 * const data = await openBacktestData(resolve(spec.projectDir, spec.backtest.data));
 * if (data.kind === 'candles') console.log(data.candles.interval);
 * ```
 */
export async function openBacktestData(path: string): Promise<BacktestData> {
  const dirs = await recordingDirs(path);
  const kinds = await Promise.all(dirs.map((d) => isCandleRecording(d)));
  const candleDirs = dirs.filter((_, i) => kinds[i]);
  if (candleDirs.length === 0) return { kind: 'ticks', set: await openRecordings(path) };
  if (candleDirs.length < dirs.length) {
    const ticks = dirs.filter((_, i) => !kinds[i]);
    throw new RecordingError(
      'bad-format',
      `${path}: candle recordings (${candleDirs.join(', ')}) and tick recordings (${ticks.join(', ')}) cannot be replayed together; name one kind`,
    );
  }
  const parts = (await Promise.all(candleDirs.map((d) => readCandleRecordingMeta(d)))).sort(
    (a, b) => a.meta.startMs - b.meta.startMs,
  );
  const interval = (parts[0] as CandleRecordingPart).meta.interval;
  const other = parts.find((p) => p.meta.interval !== interval);
  if (other !== undefined) {
    throw new RecordingError(
      'bad-format',
      `${other.dir} holds ${other.meta.interval} candles, ${(parts[0] as CandleRecordingPart).dir} ${interval}: replay one interval at a time`,
    );
  }
  const series = seriesOf(parts);
  const holidays = mergeCandleHolidays(parts);
  const calendar = calendarOf(parts, holidays);
  const stream = candleRecordStream(parts.map((p) => p.dir).join(' + '), series, calendar);
  const startMs = Math.min(...parts.map((p) => p.meta.startMs));
  const endMs = Math.max(...parts.map((p) => p.meta.endMs));
  const meta: RecordingMeta = {
    format: 'tiqs-runner-recording',
    version: 1,
    quoteFile: '',
    startMs,
    endMs,
    start: new Date(startMs).toISOString(),
    end: new Date(endMs).toISOString(),
    records: 4 * parts.reduce((n, p) => n + p.meta.bars, 0),
    holidays,
    chainSymbols: [],
    chains: [],
    note: `${interval} candles replayed as synthesised quotes`,
  };
  const set: RecordingSet = {
    dir: stream.dir,
    meta,
    // `instruments.csv` beside the candles is the backtest's master (recordedInstrumentMaster).
    parts: parts.map((p) => ({ dir: p.dir, meta, file: join(p.dir, 'meta.json') })),
    blocks: () => stream.blocks(),
  };
  return {
    kind: 'candles',
    set,
    candles: { interval, parts, series, calendar, skipped: stream.skipped },
  };
}

/**
 * The replay's calendar from the recordings' holidays; a list the calendar refuses (a
 * session that does not end after it starts, say) is a RecordingError naming the files.
 */
function calendarOf(
  parts: readonly CandleRecordingPart[],
  holidays: ReturnType<typeof mergeCandleHolidays>,
): TradingCalendar {
  try {
    return TradingCalendar.fromHolidays(holidays ?? { holidays: {}, specialTradingDays: {} }, {
      outsideCoverage: holidays === null ? 'regular' : 'closed',
    });
  } catch (err) {
    const files = parts.map((p) => join(p.dir, 'meta.json')).join(', ');
    throw new RecordingError('bad-format', `${files}: holidays: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

/** Each token's recordings, earliest first; two recordings of a token must not overlap. */
function seriesOf(parts: readonly CandleRecordingPart[]): CandleSeries[] {
  const byToken = new Map<number, { exchange: string; dirs: string[]; endMs: number }>();
  for (const part of parts) {
    for (const inst of part.meta.instruments) {
      const s = byToken.get(inst.token);
      if (s === undefined) {
        byToken.set(inst.token, {
          exchange: inst.exchange,
          dirs: [part.dir],
          endMs: part.meta.endMs,
        });
        continue;
      }
      if (part.meta.startMs < s.endMs) {
        throw new RecordingError(
          'overlap',
          `${part.dir} (from ${part.meta.start}) overlaps ${s.dirs.at(-1)} for token ${inst.token}`,
        );
      }
      s.dirs.push(part.dir);
      s.endMs = part.meta.endMs;
    }
  }
  return [...byToken].map(([token, s]) => ({ token, exchange: s.exchange, dirs: s.dirs }));
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
  return entries
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'meta.json')))
    .map((e) => join(dir, e.name))
    .sort();
}

/**
 * What a trader should know about a candle replay once it ran: recordings whose download
 * did not finish (`complete: false`), and bars dropped for falling outside every session
 * of the recording's calendar (a holiday the calendar knows, say).
 */
export function candleReplayNotes(candles: CandleData): string[] {
  const notes: string[] = [];
  for (const p of candles.parts) {
    if (!p.meta.complete) {
      notes.push(
        `${p.dir}: the candle recording is incomplete (complete: false); rerun history to finish it`,
      );
    }
  }
  if (candles.skipped.bars > 0) {
    notes.push(
      `${candles.skipped.bars} bar(s) fell outside every session of the recording's calendar and were not replayed`,
    );
  }
  const none = [...skippedTokens(candles)];
  if (none.length > 0)
    notes.push(
      `every bar of token(s) ${none.join(', ')} fell outside the calendar's sessions (holidays for another year? naive UTC times?)`,
    );
  return notes;
}

/** Tokens whose every bar read was skipped: listed in the data, yet never replayed. */
export function skippedTokens(candles: CandleData): ReadonlySet<number> {
  const { tokens, replayed } = candles.skipped;
  return new Set([...tokens].filter((t) => !replayed.has(t)));
}
