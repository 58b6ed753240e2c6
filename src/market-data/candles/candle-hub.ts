import type { Logger } from 'pino';
import { from, Observable, Subject, Subscription } from 'rxjs';
import { errorMessage } from '../../calendar/error-message.ts';
import type { Clock } from '../../clock/clock.ts';
import {
  CANDLE_INTERVALS,
  type Candle,
  type CandleInterval,
  candleSlot,
} from '../../domain/candle.ts';
import type { HealthEvent } from '../health.ts';
import type { CandleCalendar, ExchangeOf } from './candle-calendar.ts';
import type { CandleHistory } from './candle-history.ts';
import { type CandleQuoteFeed, LiveCandles } from './live-candles.ts';
import { lookbackStart } from './lookback.ts';

/** Options of `candles$`. */
export interface CandleOptions {
  /** Completed candles before now to deliver first (`historical: true`); default 0. */
  readonly history?: number;
}

/** Options of {@link CandleHub}. */
export interface CandleHubOptions {
  feed: CandleQuoteFeed;
  clock: Clock;
  /** The trading calendar now (undefined until one loads: no candles meanwhile). */
  calendar: () => CandleCalendar | undefined;
  /** Warm-up candles; none (every history request starts cold) when absent. */
  history?: CandleHistory;
  exchangeOf?: ExchangeOf;
  logger?: Logger;
}

/**
 * `ctx.market.candles$` for every strategy of a bot: live candles from one shared
 * {@link LiveCandles}, preceded on request by history. The seam has no gap and no
 * duplicate: history is the candles that ended by the instant of subscribing, live is
 * the ones ending after it (live candles completing while history is fetched wait for it).
 * When the candle in progress at subscribing got no live quote (the first live candle
 * starts after it), history is asked once more for the candles ending in between, emitted
 * `historical: true` just before that first live candle.
 * When history is short or unavailable the stream starts cold, says so on
 * {@link warnings$} (a `degraded` health event of the token) and in a log line.
 *
 * @example
 * ```ts
 * const hub = new CandleHub({ feed: bus, clock, calendar: () => store.calendar, history });
 * hub.candles$(3045, '1m', { history: 14 }).subscribe((c) => rsi.update(c.close));
 * ```
 */
export class CandleHub {
  private readonly live: LiveCandles;
  private readonly warnings = new Subject<HealthEvent>();
  /** Cold starts, as health events of the token concerned. */
  readonly warnings$: Observable<HealthEvent> = this.warnings.asObservable();

  constructor(private readonly options: CandleHubOptions) {
    this.live = new LiveCandles(options.feed, options.clock, options.calendar, options.exchangeOf);
  }

  /**
   * Completed candles of `token`: `history` warm-up ones first, then each live one at its
   * end. `onWarning` hears this subscription's cold start too (a strategy's own health$).
   */
  candles$(
    token: number,
    interval: CandleInterval,
    options: CandleOptions = {},
    onWarning?: (warning: HealthEvent) => void,
  ): Observable<Candle> {
    if (!CANDLE_INTERVALS.includes(interval)) {
      throw new RangeError(`candles$: interval must be one of ${CANDLE_INTERVALS.join(', ')}`);
    }
    const wanted = Math.max(0, Math.floor(options.history ?? 0));
    const live = this.live.stream(token, interval);
    if (wanted === 0) return live;
    return new Observable<Candle>((subscriber) => {
      const now = this.options.clock.now();
      const abort = new AbortController();
      const subs = new Subscription(() => abort.abort());
      // Live candles wait here while history (the warm-up, then the seam's fill) is fetched.
      const waiting: Candle[] = [];
      let busy = true;
      let seamChecked = false;
      let liveDone = false;
      /** Emits `candles` (history), then lets the waiting live ones through. */
      const after = (fetched: Promise<Candle[]>): void => {
        busy = true;
        subs.add(
          from(fetched).subscribe((candles) => {
            for (const c of candles) subscriber.next(c);
            busy = false;
            drain();
          }),
        );
      };
      const drain = (): void => {
        while (!busy && waiting.length > 0) {
          const first = waiting[0] as Candle;
          if (!seamChecked) {
            seamChecked = true;
            const fillFrom = this.seamGap(token, interval, now, first.start);
            if (fillFrom !== undefined) {
              after(this.seamFill(token, interval, fillFrom, now, first.start, abort.signal));
              return;
            }
          }
          waiting.shift();
          subscriber.next(first);
        }
        if (!busy && liveDone) subscriber.complete();
      };
      subs.add(
        live.subscribe({
          next: (c) => {
            // History has every candle ended by `now`: a live one of those would repeat it.
            if (c.end <= now) return;
            waiting.push(c);
            drain();
          },
          error: (err: unknown) => subscriber.error(err),
          complete: () => {
            liveDone = true;
            drain();
          },
        }),
      );
      after(this.history(token, interval, wanted, now, abort.signal, onWarning));
      return subs;
    });
  }

  /**
   * Where the seam has a gap: the first live candle starts after the candle that was in
   * progress at `now` (no quote stamped inside it came, e.g. the first poll was answered
   * after its end), so the candles ending between `now` and it are in neither history nor
   * live. Returns the start of the slot in progress at `now` when such a slot exists.
   */
  private seamGap(
    token: number,
    interval: CandleInterval,
    now: number,
    liveStart: number,
  ): number | undefined {
    const calendar = this.options.calendar();
    if (this.options.history === undefined || calendar === undefined) return undefined;
    const exchange = this.options.exchangeOf?.(token);
    const session = calendar.sessionAt(now, exchange);
    const fillFrom = session === undefined ? now : candleSlot(now, interval, session).start;
    // The last slot ended by the live candle's start: none since `fillFrom`, no gap.
    const last = lookbackStart(calendar, liveStart, interval, 1, exchange);
    return fillFrom < liveStart && last >= fillFrom && last < liveStart ? fillFrom : undefined;
  }

  /** The candles ending in `(now, liveStart]`, from history (`historical: true`). */
  private async seamFill(
    token: number,
    interval: CandleInterval,
    fillFrom: number,
    now: number,
    liveStart: number,
    signal: AbortSignal,
  ): Promise<Candle[]> {
    const { history } = this.options;
    const calendar = this.options.calendar();
    if (history === undefined || calendar === undefined) return [];
    const exchange = this.options.exchangeOf?.(token);
    const request = { token, interval, exchange, from: fillFrom, to: liveStart, calendar };
    try {
      const got = await history.candles(request, signal);
      return got
        .filter((c) => c.start >= fillFrom && c.end > now && c.end <= liveStart)
        .map((c) => ({ ...c, historical: true }));
    } catch (err) {
      if (signal.aborted) return [];
      const reason = errorMessage(err);
      this.options.logger?.warn(
        { token, interval, from: fillFrom, to: liveStart },
        `${interval} candles of ${token}: history to fill the seam unavailable: ${reason}`,
      );
      return [];
    }
  }

  /** The last `wanted` candles ended by `now`, marked historical; short or none warns. */
  private async history(
    token: number,
    interval: CandleInterval,
    wanted: number,
    now: number,
    signal: AbortSignal,
    onWarning?: (warning: HealthEvent) => void,
  ): Promise<Candle[]> {
    const { history } = this.options;
    const calendar = this.options.calendar();
    const exchange = this.options.exchangeOf?.(token);
    let candles: Candle[] = [];
    let reason: string | undefined;
    if (history === undefined) reason = 'no history source in this mode';
    else if (calendar === undefined) reason = 'no trading calendar loaded';
    else {
      // Twice the slots: a slot without trades has no candle.
      const fromMs = lookbackStart(calendar, now, interval, wanted * 2, exchange);
      try {
        const request = { token, interval, exchange, from: fromMs, to: now, calendar };
        const got = await history.candles(request, signal);
        candles = got
          .filter((c) => c.end <= now && c.start >= fromMs)
          .slice(-wanted)
          .map((c) => ({ ...c, historical: true }));
        if (candles.length < wanted) reason = `history has ${candles.length} of ${wanted} candles`;
      } catch (err) {
        if (signal.aborted) return [];
        reason = `history unavailable: ${errorMessage(err)}`;
      }
    }
    if (reason !== undefined) {
      const warning = this.warn(token, interval, wanted, candles.length, reason);
      onWarning?.(warning);
    }
    return candles;
  }

  private warn(
    token: number,
    interval: CandleInterval,
    wanted: number,
    got: number,
    reason: string,
  ): HealthEvent {
    const text = `${interval} candles of ${token} start ${got === 0 ? 'cold' : 'short'}: ${reason}`;
    this.options.logger?.warn({ token, interval, wanted, got }, text);
    const at = this.options.clock.now();
    const warning: HealthEvent = { status: 'degraded', at, token, reason: text };
    this.warnings.next(warning);
    return warning;
  }
}
