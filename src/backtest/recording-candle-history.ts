import type { Candle } from '../domain/candle.ts';
import { istDayStart } from '../domain/ist.ts';
import { CandleBuilder, type CandleTick } from '../market-data/candles/candle-builder.ts';
import type { CandleHistory, CandleHistoryRequest } from '../market-data/candles/candle-history.ts';
import { sourceTimeOf } from '../market-data/market-quote.ts';
import type { Recording } from '../recording/read-recording.ts';
import { RecordCursor } from '../recording/record-cursor.ts';
import type { RecordStream } from '../recording/recording-set.ts';

/**
 * History in a backtest: the recording's quotes *before the window start*, aggregated by
 * the very {@link CandleBuilder} the live candles use, so warm-up candles are what paper
 * mode built from the same quotes. Only quotes that carry volume (`ohlcv`, `full`) count.
 * {@link load} reads them once, before the replay starts: history then answers at once,
 * at the same virtual instant in every run.
 *
 * @example
 * ```ts
 * const history = await RecordingCandleHistory.load(recording, from);
 * const kernel = await Kernel.create({ ..., candleHistory: history });
 * ```
 */
/** A recorded trade and the instant its quote was received (the record's time). */
interface RecordedTick extends CandleTick {
  readonly receivedAt: number;
}

export class RecordingCandleHistory implements CandleHistory {
  private constructor(private readonly ticks: ReadonlyMap<number, readonly RecordedTick[]>) {}

  /** Reads the trades of every token recorded before `before` (epoch ms). */
  static async load(
    recording: Recording | RecordStream,
    before: number,
  ): Promise<RecordingCandleHistory> {
    const ticks = new Map<number, RecordedTick[]>();
    const cursor = new RecordCursor(recording);
    try {
      while ((await cursor.ready()) && cursor.reader.time < before) {
        const r = cursor.reader;
        if (r.kind === 'ohlcv' || r.kind === 'full') {
          const q = r.quote() as { ltp: number; volume: number; oi: number };
          let list = ticks.get(r.token);
          if (list === undefined) {
            list = [];
            ticks.set(r.token, list);
          }
          const at = sourceTimeOf(r.quote(), r.kind, r.time);
          list.push({ at, price: q.ltp, dayVolume: q.volume, oi: q.oi, receivedAt: r.time });
        }
        cursor.step();
      }
    } finally {
      cursor.close();
    }
    return new RecordingCandleHistory(ticks);
  }

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
    for (const tick of this.ticks.get(token) ?? []) {
      if (tick.receivedAt < dayStart || tick.receivedAt >= to) continue;
      const open = builder.openUntil;
      // Live, a timer closes a candle at its end, before a quote received then or later:
      // a trade of that candle received after its end comes too late for it, here too.
      if (open !== undefined && open <= tick.receivedAt) keep(builder.closeAt(tick.receivedAt));
      keep(builder.add(tick));
    }
    keep(builder.closeAt(to));
    return out;
  }
}
