import { Observable, type Subscription, share } from 'rxjs';
import type { Clock } from '../../clock/clock.ts';
import type { Candle, CandleInterval } from '../../domain/candle.ts';
import type { MarketFeed } from '../market-feed.ts';
import { CandleBuilder } from './candle-builder.ts';
import type { CandleCalendar, ExchangeOf } from './candle-calendar.ts';

/** What live candles need of a feed: its shared quote streams (bus or replay). */
export type CandleQuoteFeed = Pick<MarketFeed, 'quote$'>;

/**
 * Live candles built from a feed's `ohlcv` quotes (the mode that carries the day's volume),
 * one {@link CandleBuilder} per token and interval shared by every subscriber (the first
 * one starts it, the last one stops it). A timer on the clock's scheduler closes each
 * candle at its end, in virtual time too, whether or not a later quote comes; the candle
 * in progress is never emitted.
 *
 * @example
 * ```ts
 * const live = new LiveCandles(bus, clock, () => calendar);
 * live.stream(3045, '5m').subscribe((c) => log.info(c));
 * ```
 */
export class LiveCandles {
  private readonly streams = new Map<string, Observable<Candle>>();

  constructor(
    private readonly feed: CandleQuoteFeed,
    private readonly clock: Clock,
    private readonly calendar: () => CandleCalendar | undefined,
    private readonly exchangeOf: ExchangeOf = () => undefined,
  ) {}

  /** The shared stream of completed live candles of `token` in `interval`. */
  stream(token: number, interval: CandleInterval): Observable<Candle> {
    const key = `${token}:${interval}`;
    let stream = this.streams.get(key);
    if (stream === undefined) {
      stream = this.open(token, interval).pipe(share());
      this.streams.set(key, stream);
    }
    return stream;
  }

  private open(token: number, interval: CandleInterval): Observable<Candle> {
    const { clock } = this;
    return new Observable<Candle>((subscriber) => {
      // Started now: the first quote often carries a trade from before it (the service's
      // last trade), whose candle has ended; it must not come out as a live candle.
      const builder = new CandleBuilder(
        token,
        interval,
        this.calendar,
        this.exchangeOf(token),
        clock.now(),
      );
      let timer: Subscription | undefined;
      let timerAt: number | undefined;
      const arm = (): void => {
        const end = builder.openUntil;
        if (end === undefined || end === timerAt) return;
        timer?.unsubscribe();
        timerAt = end;
        timer = clock.scheduler.schedule(
          () => {
            timerAt = undefined;
            const closed = builder.closeAt(clock.now());
            if (closed !== undefined) subscriber.next(closed);
          },
          Math.max(0, end - clock.now()),
        );
      };
      const quotes = this.feed.quote$(token, 'ohlcv').subscribe({
        next: (q) => {
          const closed = builder.add({
            at: q.sourceTime,
            price: q.quote.ltp,
            dayVolume: q.quote.volume,
            oi: q.quote.oi,
          });
          if (closed !== undefined) subscriber.next(closed);
          arm();
        },
        error: (err: unknown) => subscriber.error(err),
        complete: () => subscriber.complete(),
      });
      return () => {
        quotes.unsubscribe();
        timer?.unsubscribe();
      };
    });
  }
}
