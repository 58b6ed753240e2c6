import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { from, map, type Observable, type Subscription, tap } from 'rxjs';
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
import type { MarketDataBus } from '../market-data/market-data-bus.ts';
import type { MarketSource } from '../market-data/market-source.ts';
import { projectQuote } from '../market-data/project-quote.ts';
import { RecordWriter } from './record-writer.ts';
import type { RecordingMeta } from './recording-meta.ts';

/** File name of the instrument master saved beside a recording's quotes. */
export const INSTRUMENT_MASTER_FILE = 'instruments.csv';

/** An instrument the recorder keeps polled even when no strategy asks for it. */
export interface RecordedInstrument {
  token: number;
  mode: QuoteMode;
  /** Also record its greeks (options). */
  greeks?: boolean;
}

/** Options of {@link Recorder.create}. */
export interface RecorderOptions {
  /** Folder to write `quotes.bin` and `meta.json` into; created if missing. */
  dir: string;
  clock: Clock;
  /** gzip the quote file when closing (a third of the size; replay unzips it once). */
  gzip?: boolean;
  note?: string;
  /**
   * `full` (default): every quote poll is asked of the source in `full` mode and recorded
   * so, and the poller gets the mode it asked for projected from it: the recording has
   * depth for every token from its first poll, so a backtest's paper venue can fill an
   * order placed before the recording run ever traded the token. `as-polled`: each poll
   * in its own mode (smaller files, but no depth where nothing asked for `full`).
   */
  depth?: 'full' | 'as-polled';
}

/**
 * Records what the market-data source answers, as the bot asked for it: every quote
 * answer (in `full` mode by default, see {@link RecorderOptions.depth}), greeks, the
 * holidays and option-chain snapshots.
 * It wraps the kernel's source ({@link tap}), so it sees exactly what the bus polled —
 * every mode in use, unchanged quotes included — at the instant the bus asked, and adds
 * no request of its own. {@link attach} adds demand for instruments no strategy follows.
 *
 * @example
 * ```ts
 * const rec = Recorder.create({ dir: 'backtests/data/today', clock });
 * const source = rec.tap(client);
 * // ... run the bot on `source` ...
 * rec.close();
 * ```
 */
export class Recorder {
  private readonly writer: RecordWriter;
  private readonly meta: Omit<RecordingMeta, 'startMs' | 'endMs' | 'start' | 'end' | 'records'>;
  private readonly startMs: number;
  private lastMs: number;
  private closed = false;
  private final: RecordingMeta | undefined;
  /** Tokens recorded (quotes or greeks), for the meta's `tokens`. */
  private readonly tokens = new Set<number>();

  private constructor(private readonly options: RecorderOptions) {
    mkdirSync(options.dir, { recursive: true });
    rmSync(join(options.dir, 'quotes.bin.gz'), { force: true });
    this.startMs = options.clock.now();
    this.lastMs = this.startMs;
    this.writer = new RecordWriter(this.startMs, join(options.dir, 'quotes.bin'));
    this.meta = {
      format: 'tiqs-runner-recording',
      version: 1,
      quoteFile: 'quotes.bin',
      holidays: null,
      chainSymbols: [],
      chains: [],
      ...(options.note === undefined ? {} : { note: options.note }),
    };
  }

  /** Starts a recording in `options.dir` at the clock's now. */
  static create(options: RecorderOptions): Recorder {
    return new Recorder(options);
  }

  /** Records written so far. */
  get records(): number {
    return this.writer.records;
  }

  /** A source that answers like `source` and records every answer. */
  tap(source: MarketSource): MarketSource {
    const clock = this.options.clock;
    const tapped: MarketSource = {
      quotes: <M extends QuoteMode>(
        mode: M,
        tokens: readonly number[],
        signal?: AbortSignal,
      ): Observable<Quote<M>[]> => {
        const at = clock.now();
        const record = (asked: QuoteMode, quotes: readonly Quote[]): void => {
          if (this.closed) return;
          for (const q of quotes) {
            this.writer.quote(asked, q, at);
            this.tokens.add(q.token);
          }
          this.seen(at);
        };
        if (mode === 'full' || this.options.depth === 'as-polled') {
          return from(source.quotes(mode, tokens, signal)).pipe(
            tap((quotes) => record(mode, quotes)),
          );
        }
        // Asked in full, recorded in full, answered in the mode the poller asked for (the
        // same fields a poll in that mode returns: the bot runs as it would without us).
        return from(source.quotes('full', tokens, signal)).pipe(
          tap((quotes) => record('full', quotes)),
          map((quotes) => quotes.map((q) => projectQuote(q, 'full', mode))),
        );
      },
      greeks: (tokens: readonly number[], signal?: AbortSignal): Observable<Greeks[]> => {
        const at = clock.now();
        return from(source.greeks(tokens, signal)).pipe(
          tap((greeks) => {
            if (this.closed) return;
            greeks.forEach((g, i) => {
              const token = tokens[i];
              if (token === undefined) return;
              this.writer.greeks(token, g, at);
              this.tokens.add(token);
            });
            this.seen(at);
          }),
        );
      },
      holidays: async (signal?: AbortSignal): Promise<Holidays> => {
        const h = await source.holidays(signal);
        this.meta.holidays = structuredClone(h);
        return h;
      },
      optionChainSymbols: async (signal?: AbortSignal): Promise<OptionChainSymbols> => {
        const at = clock.now();
        const symbols = await source.optionChainSymbols(signal);
        this.meta.chainSymbols.push({ at, symbols: structuredClone(symbols) });
        return symbols;
      },
      optionChain: async (
        request: OptionChainRequest,
        signal?: AbortSignal,
      ): Promise<OptionChainEntry[]> => {
        const at = clock.now();
        const entries = await source.optionChain(request, signal);
        this.meta.chains.push({ at, request: { ...request }, entries: structuredClone(entries) });
        return entries;
      },
    };
    if (source.instrumentMaster !== undefined) {
      const fetchMaster = source.instrumentMaster.bind(source);
      // Saved beside the quotes: the backtest of this day looks instruments up in it.
      tapped.instrumentMaster = async (signal?: AbortSignal): Promise<string> => {
        const csv = await fetchMaster(signal);
        this.saveInstrumentMaster(csv);
        return csv;
      };
    }
    if (source.setCredentials !== undefined) {
      const set = source.setCredentials.bind(source);
      tapped.setCredentials = (c) => set(c);
    }
    return tapped;
  }

  /**
   * Saves the instrument master the bot uses beside the quotes (`instruments.csv`), also
   * one read from the day's cache that the source was never asked for.
   */
  saveInstrumentMaster(csv: string): void {
    if (!this.closed) writeFileSync(join(this.options.dir, INSTRUMENT_MASTER_FILE), csv);
  }

  /**
   * Keeps `instruments` polled through `bus` (and so recorded) until the returned
   * subscription ends: fills with realistic depth need full quotes of the traded
   * instruments from the start, not only once a strategy first trades them.
   */
  attach(
    bus: Pick<MarketDataBus, 'quote$' | 'greeks$'>,
    instruments: readonly RecordedInstrument[],
  ): Subscription[] {
    return instruments.flatMap((i) => {
      const subs = [bus.quote$(i.token, i.mode).subscribe()];
      if (i.greeks === true) subs.push(bus.greeks$([i.token]).subscribe());
      return subs;
    });
  }

  /** Writes the meta, closes the quote file and gzips it if asked. Safe to call twice. */
  close(): RecordingMeta {
    if (this.final !== undefined) return this.final;
    const endMs = Math.max(this.lastMs, this.options.clock.now());
    const meta: RecordingMeta = {
      ...this.meta,
      startMs: this.startMs,
      endMs,
      start: new Date(this.startMs).toISOString(),
      end: new Date(endMs).toISOString(),
      records: this.writer.records,
      tokens: [...this.tokens].sort((a, b) => a - b),
    };
    this.closed = true;
    this.writer.close();
    const { dir } = this.options;
    if (this.options.gzip === true) {
      const raw = join(dir, 'quotes.bin');
      writeFileSync(join(dir, 'quotes.bin.gz'), gzipSync(readFileSync(raw), { level: 9 }));
      rmSync(raw);
      meta.quoteFile = 'quotes.bin.gz';
    }
    writeFileSync(join(dir, 'meta.json'), `${JSON.stringify(meta, null, 1)}\n`);
    this.final = meta;
    return meta;
  }

  private seen(at: number): void {
    if (at > this.lastMs) this.lastMs = at;
  }
}
