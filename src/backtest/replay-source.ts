import type { Quote } from '../api/schemas/quote.ts';
import type {
  Greeks,
  Holidays,
  OptionChainEntry,
  OptionChainRequest,
  OptionChainSymbols,
} from '../api/schemas/utilities.ts';
import type { Clock } from '../clock/clock.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import type { MarketSource } from '../market-data/market-source.ts';
import { projectQuote } from '../market-data/project-quote.ts';
import { type Recording, readRecording } from '../recording/read-recording.ts';
import type { RecordKind } from '../recording/record-format.ts';
import { RecordReader } from '../recording/record-reader.ts';
import { RecordingError } from '../recording/recording-error.ts';
import type { RecordingSet } from '../recording/recording-set.ts';
import { recordedInstrumentMaster } from './recorded-instrument-master.ts';

/** Where the records of one kind and token are: time, and offset in which file. */
interface Series {
  times: Float64Array;
  offsets: Float64Array;
  files: Uint16Array;
}

interface Index {
  series: Map<string, Series>;
  records: number;
  /** A reader over each quote file, in the order of `files`. */
  readers: RecordReader[];
}

/** Richest first: the record kinds that can answer a request in each mode. */
const COVERING: Record<QuoteMode, readonly RecordKind[]> = {
  ltp: ['full', 'ohlcv', 'ltp'],
  ohlcv: ['full', 'ohlcv'],
  full: ['full'],
};

/**
 * A {@link MarketSource} over a recording: each answer is the latest record at or before
 * the clock's now, so a bus polling on a virtual clock sees what it saw when recording,
 * and never a record from its future.
 *
 * - Quotes: of the records that can answer the mode (full ⊇ ohlcv ⊇ ltp), the newest,
 *   projected down. A token with no such record yet is left out of the answer; the bus
 *   then counts it stale, as it would a token the service skipped.
 * - Greeks: answers are positional, so a token without greeks fails the request.
 * - Holidays and option chains: the recorded snapshots (latest at or before now, else
 *   the earliest).
 *
 * `runBacktest` asks it for holidays and option chains only (from the metas: a
 * {@link RecordingSet} streamed by `ReplayMarket` is not loaded here); its quotes are
 * pushed by `ReplayMarket`. Polling this source through a `MarketDataBus` still works
 * (tests, tools): the first quote request loads the quote files, if not in memory
 * already, and indexes them.
 *
 * @example
 * ```ts
 * const replay = new ReplaySource(await openRecordings(dir), clock);
 * const kernel = await Kernel.create({ config, configFile, logger, clock, source: replay });
 * ```
 */
export class ReplaySource implements MarketSource {
  /** Built on the first quote or greeks request: a backtest asks this source for none. */
  private index: Promise<Index> | undefined;
  /** Quotes and greeks answered so far. */
  served = 0;
  /** Why the instrument master is not the recording's own, once one was asked for. */
  instrumentMasterNote: string | undefined;

  constructor(
    readonly recording: Recording | RecordingSet,
    private readonly clock: Clock,
  ) {}

  /** Quote and greeks records in the files (loads and indexes them). */
  async records(): Promise<number> {
    return (await this.indexed()).records;
  }

  /** First and last instants of the recording, epoch ms. */
  get range(): { start: number; end: number } {
    return { start: this.recording.meta.startMs, end: this.recording.meta.endMs };
  }

  async quotes<M extends QuoteMode>(mode: M, tokens: readonly number[]): Promise<Quote<M>[]> {
    const index = await this.indexed();
    const now = this.clock.now();
    const out: Quote<M>[] = [];
    for (const token of tokens) {
      let best: ({ kind: RecordKind } & Hit) | undefined;
      for (const kind of COVERING[mode]) {
        const hit = latest(index, kind, token, now);
        if (hit !== undefined && (best === undefined || hit.time > best.time))
          best = { kind, ...hit };
      }
      if (best === undefined) continue;
      const reader = at(index, best);
      this.served += 1;
      out.push(projectQuote(reader.quote(), best.kind as QuoteMode, mode) as Quote<M>);
    }
    return out;
  }

  async greeks(tokens: readonly number[]): Promise<Greeks[]> {
    const index = await this.indexed();
    const now = this.clock.now();
    return tokens.map((token) => {
      const hit = latest(index, 'greeks', token, now);
      if (hit === undefined) {
        throw new RecordingError(
          'not-recorded',
          `no greeks of token ${token} recorded at or before ${new Date(now).toISOString()}`,
        );
      }
      this.served += 1;
      return at(index, hit).greeks();
    });
  }

  async holidays(): Promise<Holidays> {
    const h = this.recording.meta.holidays;
    if (h === null) {
      throw new RecordingError('not-recorded', `${this.recording.dir}: no holidays recorded`);
    }
    return structuredClone(h);
  }

  async optionChainSymbols(): Promise<OptionChainSymbols> {
    const snap = atOrBefore(this.recording.meta.chainSymbols, this.clock.now());
    if (snap === undefined) {
      throw new RecordingError('not-recorded', `${this.recording.dir}: no option-chain symbols`);
    }
    return structuredClone(snap.symbols);
  }

  async optionChain(request: OptionChainRequest): Promise<OptionChainEntry[]> {
    const same = this.recording.meta.chains.filter(
      (c) => c.request.token === request.token && c.request.expiry === request.expiry,
    );
    const snap = atOrBefore(same, this.clock.now());
    if (snap === undefined) {
      throw new RecordingError(
        'not-recorded',
        `${this.recording.dir}: no option chain of ${request.token} for ${request.expiry} recorded`,
      );
    }
    return structuredClone(snap.entries);
  }

  /** The master saved beside the recording, else the simulator's (see `instrumentMasterNote`). */
  async instrumentMaster(): Promise<string> {
    const parts = 'parts' in this.recording ? this.recording.parts : [this.recording];
    const found = await recordedInstrumentMaster(parts, this.recording.meta, this.clock.now());
    this.instrumentMasterNote = found.note;
    return found.csv;
  }

  private indexed(): Promise<Index> {
    this.index ??= loadIndex(this.recording);
    return this.index;
  }
}

/** A record found: its time, and where it is. */
interface Hit {
  time: number;
  offset: number;
  file: number;
}

/** Latest record of `kind` for `token` at or before `now` (binary search). */
function latest(index: Index, kind: RecordKind, token: number, now: number): Hit | undefined {
  const s = index.series.get(`${kind}:${token}`);
  if (s === undefined) return undefined;
  let lo = 0;
  let hi = s.times.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((s.times[mid] ?? 0) <= now) lo = mid + 1;
    else hi = mid;
  }
  if (lo === 0) return undefined;
  return { offset: s.offsets[lo - 1] ?? 0, time: s.times[lo - 1] ?? 0, file: s.files[lo - 1] ?? 0 };
}

/** The reader of the hit's file, standing on it. */
function at(index: Index, hit: Hit): RecordReader {
  const reader = index.readers[hit.file] as RecordReader;
  reader.seek(hit.offset);
  return reader;
}

/** The quote files in memory (loaded now for a set read by streaming), indexed. */
async function loadIndex(recording: Recording | RecordingSet): Promise<Index> {
  const loaded =
    'bytes' in recording
      ? [recording]
      : await Promise.all(recording.parts.map((p) => readRecording(p.dir)));
  return indexRecords(loaded.map((r) => new RecordReader(r.bytes, r.dir)));
}

/** Offsets and times of every record, by kind and token, for binary search. */
function indexRecords(readers: RecordReader[]): Index {
  const build = new Map<string, { times: number[]; offsets: number[]; files: number[] }>();
  let records = 0;
  readers.forEach((reader, file) => {
    const scan = new RecordReader(reader.bytes, reader.source);
    while (scan.next()) {
      records += 1;
      const key = `${scan.kind}:${scan.token}`;
      let s = build.get(key);
      if (s === undefined) {
        s = { times: [], offsets: [], files: [] };
        build.set(key, s);
      }
      s.times.push(scan.time);
      s.offsets.push(scan.offset);
      s.files.push(file);
    }
  });
  const series = new Map<string, Series>();
  for (const [key, s] of build) {
    series.set(key, {
      times: Float64Array.from(s.times),
      offsets: Float64Array.from(s.offsets),
      files: Uint16Array.from(s.files),
    });
  }
  return { series, records, readers };
}

/** The snapshot taken last at or before `now`, else the first one. */
function atOrBefore<T extends { at: number }>(list: readonly T[], now: number): T | undefined {
  let best: T | undefined;
  for (const s of list) if (s.at <= now && (best === undefined || s.at >= best.at)) best = s;
  return best ?? list[0];
}
