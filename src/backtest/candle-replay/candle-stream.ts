import type { TradingCalendar } from '../../calendar/trading-calendar.ts';
import type { Candle } from '../../domain/candle.ts';
import { EXCHANGES, type Exchange } from '../../domain/order-params.ts';
import { candleRows } from '../../recording/candle-recording-reader.ts';
import { RecordReader } from '../../recording/record-reader.ts';
import { RecordWriter } from '../../recording/record-writer.ts';
import type { RecordStream } from '../../recording/recording-set.ts';
import { type BarQuote, BarQuotes } from './bar-quotes.ts';

/** One token's bars: the recordings holding them, earliest first, read one after the other. */
export interface CandleSeries {
  readonly token: number;
  readonly exchange: string;
  readonly dirs: readonly string[];
}

/**
 * Bars left out for falling outside every session: how many, and which tokens had any,
 * beside the tokens that replayed at least one bar (a token skipped and never replayed is
 * data the replay lacks).
 */
export interface CandleSkips {
  bars: number;
  readonly tokens: Set<number>;
  readonly replayed: Set<number>;
}

/** About this many records per block (whole instants): about 170 KiB of full quotes. */
const BLOCK_RECORDS = 1_024;
/**
 * A block's records are stamped relative to its first (a record file's window is 49
 * days): day bars, 4 quotes a day, would pass that long before 1 024 records.
 */
const BLOCK_SPAN_MS = 30 * 86_400_000;

/** The exchange of a recorded instrument, if the calendar knows it (else its default). */
function exchangeOf(name: string): Exchange | undefined {
  return (EXCHANGES as readonly string[]).includes(name) ? (name as Exchange) : undefined;
}

/** A token's bars, from each of its recordings in turn. */
async function* barsOf(series: CandleSeries): AsyncGenerator<Candle> {
  for (const dir of series.dirs) yield* candleRows(dir, series.token);
}

/**
 * A token's synthesised quotes, a bar's four at a time, and the last one again at each
 * session's close (`BarQuotes.closing`); bars outside every session skipped.
 */
async function* quotesOf(
  series: CandleSeries,
  calendar: TradingCalendar,
  skipped: CandleSkips,
): AsyncGenerator<BarQuote[]> {
  const quotes = new BarQuotes(series.token);
  const exchange = exchangeOf(series.exchange);
  let closeAt: number | undefined;
  const closing = (): BarQuote[] => {
    const q = closeAt === undefined ? undefined : quotes.closing(closeAt);
    return q === undefined ? [] : [q];
  };
  for await (const bar of barsOf(series)) {
    const session = calendar.sessionAt(bar.start, exchange);
    if (session === undefined) {
      skipped.bars += 1;
      skipped.tokens.add(series.token);
      continue;
    }
    skipped.replayed.add(series.token);
    const before = closeAt !== undefined && closeAt !== session.end ? closing() : [];
    closeAt = session.end;
    yield [...before, ...quotes.quotes(bar, Math.min(bar.end, session.end))];
  }
  const last = closing();
  if (last.length > 0) yield last;
}

interface Head {
  readonly gen: AsyncGenerator<BarQuote[]>;
  quotes: BarQuote[];
  i: number;
}

/**
 * The records of a candle replay as a {@link RecordStream}, for `ReplayMarket` as it is:
 * each token's bars become synthesised `full` quotes ({@link BarQuotes}), merged over the
 * tokens by time (ties in series order) and encoded, a block of whole instants at a time,
 * with the recording's own {@link RecordWriter}. Streamed: one bar per token and one
 * block are in memory, whatever the recordings' length. `skipped.bars` counts bars that
 * fell outside every session of `calendar` (say, a holiday the calendar knows).
 *
 * @example
 * ```ts
 * const stream = candleRecordStream('data/sbin-2025', series, calendar);
 * const market = new ReplayMarket(stream, clock);
 * ```
 */
export function candleRecordStream(
  dir: string,
  series: readonly CandleSeries[],
  calendar: TradingCalendar,
): RecordStream & { readonly skipped: CandleSkips } {
  const skipped: CandleSkips = { bars: 0, tokens: new Set(), replayed: new Set() };
  return {
    dir,
    skipped,
    async *blocks() {
      skipped.bars = 0;
      skipped.tokens.clear();
      skipped.replayed.clear();
      const heads: Head[] = [];
      for (const s of series) {
        const gen = quotesOf(s, calendar, skipped);
        const first = await gen.next();
        if (first.done !== true) heads.push({ gen, quotes: first.value, i: 0 });
      }
      let writer: RecordWriter | undefined;
      let lastAt = Number.NaN;
      let blockAt = 0;
      while (heads.length > 0) {
        let best = 0;
        for (let h = 1; h < heads.length; h++) {
          if (at(heads[h] as Head) < at(heads[best] as Head)) best = h;
        }
        const head = heads[best] as Head;
        const q = head.quotes[head.i] as BarQuote;
        const full =
          writer !== undefined &&
          (writer.records >= BLOCK_RECORDS || q.at - blockAt >= BLOCK_SPAN_MS);
        if (writer !== undefined && full && q.at !== lastAt) {
          yield new RecordReader(writer.bytes(), dir);
          writer = undefined;
        }
        if (writer === undefined) {
          writer = new RecordWriter(q.at);
          blockAt = q.at;
        }
        writer.quote('full', q.quote, q.at);
        lastAt = q.at;
        head.i += 1;
        if (head.i === head.quotes.length) {
          const next = await head.gen.next();
          if (next.done === true) heads.splice(best, 1);
          else {
            head.quotes = next.value;
            head.i = 0;
          }
        }
      }
      if (writer !== undefined) yield new RecordReader(writer.bytes(), dir);
    },
  };
}

function at(head: Head): number {
  return (head.quotes[head.i] as BarQuote).at;
}
