import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Candle } from '../domain/candle.ts';
import { istDayStart } from '../domain/ist.ts';
import { CandleBuilder, type CandleTick } from '../market-data/candles/candle-builder.ts';
import type { CandleHistory, CandleHistoryRequest } from '../market-data/candles/candle-history.ts';
import { sourceTimeOf } from '../market-data/market-quote.ts';
import type { Recording } from '../recording/read-recording.ts';
import { RecordReader } from '../recording/record-reader.ts';
import { RecordingError } from '../recording/recording-error.ts';
import type { RecordingSet } from '../recording/recording-set.ts';

/** A recorded trade and the instant its quote was received (the record's time). */
interface RecordedTick extends CandleTick {
  readonly receivedAt: number;
}

/**
 * History in a backtest: the recording's quotes up to now, aggregated by the very
 * {@link CandleBuilder} the live candles use, so warm-up candles are what paper mode
 * built from the same quotes. Only quotes that carry volume (`ohlcv`, `full`) count.
 *
 * Nothing is held between requests: each {@link candles} call reads, synchronously, the
 * recordings that cover the IST day of its look-back start up to its `to` (now), and
 * keeps only the requested token's trades. A backtest whose strategies ask no history
 * reads nothing; a `candles$` subscribed late gets history up to its own instant. Being
 * synchronous, the answer comes at the virtual instant it was asked in every run (the
 * replay moves time only between event-loop turns).
 *
 * @example
 * ```ts
 * const history = new RecordingCandleHistory(await openRecordings(dir));
 * const kernel = await Kernel.create({ ..., candleHistory: history });
 * ```
 */
export class RecordingCandleHistory implements CandleHistory {
  constructor(private readonly recording: Recording | RecordingSet) {}

  async candles(request: CandleHistoryRequest): Promise<Candle[]> {
    const { token, interval, from, to, calendar } = request;
    if (calendar === undefined) throw new Error('no trading calendar to align candles to');
    // From the start of `from`'s day: the first candle's volume needs the day's baseline
    // (a builder running since then, as a paper bot started before the open).
    const dayStart = istDayStart(from);
    const builder = new CandleBuilder(token, interval, () => calendar, request.exchange, dayStart);
    const out: Candle[] = [];
    const keep = (c: Candle | undefined): void => {
      if (c !== undefined && c.start >= from && c.end <= to) out.push({ ...c, historical: true });
    };
    for (const tick of this.ticks(token, dayStart, to)) {
      const open = builder.openUntil;
      // Live, a timer closes a candle at its end, before a quote received then or later:
      // a trade of that candle received after its end comes too late for it, here too.
      if (open !== undefined && open <= tick.receivedAt) keep(builder.closeAt(tick.receivedAt));
      keep(builder.add(tick));
    }
    keep(builder.closeAt(to));
    return out;
  }

  /** The trades of `token` received in `[from, to)`, in file order. */
  private *ticks(token: number, from: number, to: number): Generator<RecordedTick> {
    for (const r of this.readers(from, to)) {
      while (r.next() && r.time < to) {
        if (r.token !== token || r.time < from || (r.kind !== 'ohlcv' && r.kind !== 'full')) {
          continue;
        }
        const quote = r.quote();
        const q = quote as { ltp: number; volume: number; oi: number };
        const at = sourceTimeOf(quote, r.kind, r.time);
        yield { at, price: q.ltp, dayVolume: q.volume, oi: q.oi, receivedAt: r.time };
      }
    }
  }

  /** Readers over the recordings that hold records in `[from, to)`, earliest first. */
  private *readers(from: number, to: number): Generator<RecordReader> {
    const rec = this.recording;
    if ('bytes' in rec) {
      yield new RecordReader(rec.bytes, rec.dir);
      return;
    }
    for (const part of rec.parts) {
      if (part.meta.endMs < from || part.meta.startMs >= to) continue;
      let bytes: Uint8Array;
      try {
        const data = readFileSync(part.file);
        bytes = data[0] === 0x1f && data[1] === 0x8b ? gunzipSync(data) : data;
      } catch (err) {
        throw new RecordingError('io', `${part.file}: cannot read the quote file`, { cause: err });
      }
      yield new RecordReader(bytes, part.file);
    }
  }
}
