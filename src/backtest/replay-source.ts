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
import type { Recording } from '../recording/read-recording.ts';
import type { RecordKind } from '../recording/record-format.ts';
import { RecordReader } from '../recording/record-reader.ts';
import { RecordingError } from '../recording/recording-error.ts';

interface Series {
  times: Float64Array;
  offsets: Float64Array;
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
 * `runBacktest` asks it for holidays and option chains only; its quotes are pushed by
 * `ReplayMarket`. Polling this source through a `MarketDataBus` still works (tests,
 * tools), and indexes the file on the first quote request.
 *
 * @example
 * ```ts
 * const replay = new ReplaySource(await readRecording(dir), clock);
 * const kernel = await Kernel.create({ config, configFile, logger, clock, source: replay });
 * ```
 */
export class ReplaySource implements MarketSource {
  private readonly reader: RecordReader;
  /** Built on the first quote or greeks request: a backtest asks this source for none. */
  private index: { series: Map<string, Series>; records: number } | undefined;
  /** Quotes and greeks answered so far. */
  served = 0;

  constructor(
    readonly recording: Recording,
    private readonly clock: Clock,
  ) {
    this.reader = new RecordReader(recording.bytes, recording.dir);
  }

  /** Quote and greeks records in the file. */
  get records(): number {
    return this.indexed().records;
  }

  /** First and last instants of the recording, epoch ms. */
  get range(): { start: number; end: number } {
    return { start: this.recording.meta.startMs, end: this.recording.meta.endMs };
  }

  async quotes<M extends QuoteMode>(mode: M, tokens: readonly number[]): Promise<Quote<M>[]> {
    const now = this.clock.now();
    const out: Quote<M>[] = [];
    for (const token of tokens) {
      let best: { kind: RecordKind; offset: number; time: number } | undefined;
      for (const kind of COVERING[mode]) {
        const hit = this.latest(kind, token, now);
        if (hit !== undefined && (best === undefined || hit.time > best.time))
          best = { kind, ...hit };
      }
      if (best === undefined) continue;
      this.reader.seek(best.offset);
      this.served += 1;
      out.push(projectQuote(this.reader.quote(), best.kind as QuoteMode, mode) as Quote<M>);
    }
    return out;
  }

  async greeks(tokens: readonly number[]): Promise<Greeks[]> {
    const now = this.clock.now();
    return tokens.map((token) => {
      const hit = this.latest('greeks', token, now);
      if (hit === undefined) {
        throw new RecordingError(
          'not-recorded',
          `no greeks of token ${token} recorded at or before ${new Date(now).toISOString()}`,
        );
      }
      this.reader.seek(hit.offset);
      this.served += 1;
      return this.reader.greeks();
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

  private indexed(): { series: Map<string, Series>; records: number } {
    this.index ??= indexRecords(this.recording);
    return this.index;
  }

  /** Latest record of `kind` for `token` at or before `now` (binary search). */
  private latest(
    kind: RecordKind,
    token: number,
    now: number,
  ): { offset: number; time: number } | undefined {
    const s = this.indexed().series.get(`${kind}:${token}`);
    if (s === undefined) return undefined;
    let lo = 0;
    let hi = s.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((s.times[mid] ?? 0) <= now) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) return undefined;
    return { offset: s.offsets[lo - 1] ?? 0, time: s.times[lo - 1] ?? 0 };
  }
}

/** Offsets and times of every record, by kind and token, for binary search. */
function indexRecords(recording: Recording): { series: Map<string, Series>; records: number } {
  const build = new Map<string, { times: number[]; offsets: number[] }>();
  const scan = new RecordReader(recording.bytes, recording.dir);
  let records = 0;
  while (scan.next()) {
    records += 1;
    const key = `${scan.kind}:${scan.token}`;
    let s = build.get(key);
    if (s === undefined) {
      s = { times: [], offsets: [] };
      build.set(key, s);
    }
    s.times.push(scan.time);
    s.offsets.push(scan.offset);
  }
  const series = new Map<string, Series>();
  for (const [key, s] of build) {
    series.set(key, { times: Float64Array.from(s.times), offsets: Float64Array.from(s.offsets) });
  }
  return { series, records };
}

/** The snapshot taken last at or before `now`, else the first one. */
function atOrBefore<T extends { at: number }>(list: readonly T[], now: number): T | undefined {
  let best: T | undefined;
  for (const s of list) if (s.at <= now && (best === undefined || s.at >= best.at)) best = s;
  return best ?? list[0];
}
