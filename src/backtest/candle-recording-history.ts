import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Candle, CandleInterval } from '../domain/candle.ts';
import { istDayStart, toIstIso } from '../domain/ist.ts';
import { CandleBuilder } from '../market-data/candles/candle-builder.ts';
import type { CandleHistory, CandleHistoryRequest } from '../market-data/candles/candle-history.ts';
import { CANDLE_CHUNK_HEADER, parseCandleRow } from '../recording/candle-chunk-csv.ts';
import { candleTokenDir, parseCandleChunkName } from '../recording/candle-recording-paths.ts';
import { RecordingError } from '../recording/recording-error.ts';
import { BarQuotes } from './candle-replay/bar-quotes.ts';
import type { CandleSeries } from './candle-replay/candle-stream.ts';

/**
 * Warm-up candles of a candle replay, from the candle files: the bars before now become
 * the same synthesised quotes the replay publishes (`BarQuotes`) and go through the very
 * {@link CandleBuilder} live candles use, so history in the recorded interval is exactly
 * the recorded bars and a longer interval aggregates them as the live stream does.
 *
 * Synchronous (the files are read with `readFileSync`, only the chunks whose dates reach
 * from the look-back's IST day to now): the answer comes at the virtual instant it was
 * asked, in every run, as with `RecordingCandleHistory`.
 *
 * @example
 * ```ts
 * const history = new CandleRecordingHistory(data.candles.interval, data.candles.series);
 * ```
 */
export class CandleRecordingHistory implements CandleHistory {
  constructor(
    private readonly interval: CandleInterval,
    private readonly series: readonly CandleSeries[],
  ) {}

  async candles(request: CandleHistoryRequest): Promise<Candle[]> {
    const { token, interval, from, to, calendar, exchange } = request;
    if (calendar === undefined)
      throw new RecordingError('not-recorded', 'no trading calendar to align candles to');
    const series = this.series.find((s) => s.token === token);
    if (series === undefined) return [];
    // From the start of `from`'s day: the day's volume counts from its first bar.
    const dayStart = istDayStart(from);
    const builder = new CandleBuilder(token, interval, () => calendar, exchange, dayStart);
    const quotes = new BarQuotes(token);
    const out: Candle[] = [];
    const keep = (c: Candle | undefined): void => {
      if (c !== undefined && c.start >= from && c.end <= to) out.push({ ...c, historical: true });
    };
    for (const bar of this.bars(series, dayStart, to)) {
      const session = calendar.sessionAt(bar.start, exchange);
      if (session === undefined) continue;
      for (const { at, quote } of quotes.quotes(bar, Math.min(bar.end, session.end))) {
        if (at >= to) break;
        const open = builder.openUntil;
        // As live: a timer closes a candle at its end, before a quote published then.
        if (open !== undefined && open <= at) keep(builder.closeAt(at));
        // Live candles read `ohlcv` quotes, whose time is `ltt`: the bar's start.
        keep(
          builder.add({
            at: quote.ltt * 1_000,
            price: quote.ltp,
            dayVolume: quote.volume,
            oi: quote.oi,
          }),
        );
      }
    }
    keep(builder.closeAt(to));
    return out;
  }

  /** The token's bars starting in `[from, to)`, from the chunks whose dates reach them. */
  private *bars(series: CandleSeries, from: number, to: number): Generator<Candle> {
    const fromDate = toIstIso(from).slice(0, 10);
    const toDate = toIstIso(to).slice(0, 10);
    for (const dir of series.dirs) {
      const folder = candleTokenDir(dir, series.token);
      let names: string[];
      try {
        names = readdirSync(folder).sort();
      } catch (err) {
        throw new RecordingError('io', `${folder}: cannot list the candle chunks`, { cause: err });
      }
      for (const name of names) {
        const span = parseCandleChunkName(name);
        if (span === null || span.to < fromDate || span.from > toDate) continue;
        const file = join(folder, name);
        const lines = readFileSync(file, 'utf8').split('\n');
        if (lines[0]?.replace(/\r$/, '') !== CANDLE_CHUNK_HEADER) {
          throw new RecordingError('bad-format', `${file}:1: header is not ${CANDLE_CHUNK_HEADER}`);
        }
        for (let i = 1; i < lines.length; i++) {
          const line = (lines[i] as string).replace(/\r$/, '');
          if (line === '') continue;
          const bar = parseCandleRow(line, series.token, this.interval, `${file}:${i + 1}`);
          if (bar.start >= to) return;
          if (bar.start >= from) yield bar;
        }
      }
    }
  }
}
