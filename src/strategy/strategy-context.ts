import type { Logger } from 'pino';
import type { Observable } from 'rxjs';
import type { CalendarTick } from '../calendar/schedules.ts';
import type { TradingCalendar } from '../calendar/trading-calendar.ts';
import type { Clock } from '../clock/clock.ts';
import type { Candle, CandleInterval } from '../domain/candle.ts';
import type { OpenOrder, OrderEvent, Position } from '../domain/order-events.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import type { HealthEvent } from '../market-data/health.ts';
import type { InstrumentLookup } from '../market-data/instruments/instrument-master.ts';
import type { MarketGreeks, MarketQuote } from '../market-data/market-quote.ts';
import type {
  ResolveChainRequest,
  ResolveChainResult,
} from '../market-data/options/option-chain-resolver.ts';
import type { IntentFactory } from './intent-factory.ts';

/**
 * Market data as a strategy sees it: shared, cached streams from the bus (live, paper)
 * or from a replay (backtest).
 *
 * @example
 * ```ts
 * ctx.market.quote$(3045, 'ltp').subscribe((q) => ctx.log.info({ ltp: q.quote.ltp }));
 * ```
 */
export interface MarketView {
  quotes$<M extends QuoteMode>(tokens: readonly number[], mode: M): Observable<MarketQuote<M>>;
  quote$<M extends QuoteMode>(token: number, mode: M): Observable<MarketQuote<M>>;
  greeks$(tokens: readonly number[]): Observable<MarketGreeks>;
  /**
   * Completed candles of `token`, each once at its end (the one in progress never),
   * aligned to the session open and never across a session break; an interval without
   * a trade has no candle. `history: N` first gives the N candles before now
   * (`historical: true`): from the service in live and paper mode, from the recording in
   * a backtest; without it the stream starts cold and `health$` says so. See
   * docs/strategies.md, "Candles".
   *
   * @example
   * ```ts
   * ctx.market.candles$(3045, '5m', { history: 14 }).pipe(map((c) => c.close));
   * ```
   */
  candles$(
    token: number,
    interval: CandleInterval,
    options?: { history?: number },
  ): Observable<Candle>;
  /**
   * The feed's overall health, then the events of this strategy's own tokens: e.g.
   * `{ status: 'rejected', token }` when the service rejects a token it asked for (the
   * token is set aside and retried alone now and then; the others keep flowing).
   */
  readonly health$: Observable<HealthEvent>;
}

/**
 * Option-chain lookups. Pure helpers (`atmStrike`, `pickByOffset`, `pickByDelta`) are
 * imported from the package directly.
 *
 * @example
 * ```ts
 * ctx.options.chain$({ underlying: 'NIFTY', underlyingToken: 26000, expiry: 'weekly', count: 10 })
 *   .subscribe((r) => r.ok && ctx.log.info({ expiry: r.chain.expiry }));
 * ```
 */
export interface OptionsView {
  /** The chain of an underlying for an expiry; one value, then complete. */
  chain$(request: ResolveChainRequest): Observable<ResolveChainResult>;
}

/**
 * Clock-driven schedules on the trading calendar (virtual time in backtests).
 *
 * @example
 * ```ts
 * ctx.schedule.beforeClose$(15).pipe(map(() => ctx.intents.squareOff()));
 * ```
 */
export interface ScheduleView {
  /** At each session open. */
  atOpen$(): Observable<CalendarTick>;
  /** `minutes` before each session close. */
  beforeClose$(minutes: number): Observable<CalendarTick>;
  /** At `HH:MM` IST on trading days. */
  at$(time: string): Observable<CalendarTick>;
  /** Every `seconds` while a session is open. */
  every$(seconds: number): Observable<CalendarTick>;
}

/**
 * Everything a strategy may use. It holds no HTTP client, no timers and no wall clock:
 * the same strategy runs unchanged live, on paper and in a backtest.
 *
 * @example
 * ```ts
 * setup: (ctx) => ctx.market.quote$(3045, 'ltp').pipe(
 *   filter((q) => q.quote.ltp < ctx.params.buyBelow),
 *   take(1),
 *   map(() => ctx.intents.place({ instrument: sbin, side: 'B', quantity: 1, orderType: 'MKT', product: 'I' })),
 * )
 * ```
 */
export interface StrategyContext<P = unknown> {
  /** This instance's id from the config. */
  readonly strategyId: string;
  /** Validated params: the schema's defaults with the config's overrides. */
  readonly params: P;
  readonly clock: Clock;
  /** The trading calendar as of start; schedules follow refreshes. */
  readonly calendar: TradingCalendar;
  readonly market: MarketView;
  readonly options: OptionsView;
  readonly schedule: ScheduleView;
  /** This strategy's order events. */
  readonly orders$: Observable<OrderEvent>;
  /** This strategy's positions, after every fill and mark. */
  readonly positions$: Observable<Position[]>;
  /** A child logger named after the strategy. */
  readonly log: Logger;
  /** Builders of intents with ids scoped to this strategy. */
  readonly intents: IntentFactory;
  /**
   * This strategy's position in `token`, now (synchronous): fills up to this instant,
   * those recovered from the journal after a restart, and the framework's own square-offs
   * included. A flat position (all zeros) when there is none.
   *
   * @example
   * ```ts
   * if (ctx.position(3045).netQuantity > 0) ctx.log.info('long');
   * ```
   */
  position(token: number): Position;
  /**
   * This strategy's working orders (sent and not yet filled, cancelled or rejected), in
   * `token` or in every instrument, the framework's own (square-off, kill switch) included.
   *
   * @example
   * ```ts
   * const working = ctx.openOrders(3045).reduce((n, o) => n + o.quantity - o.filledQuantity, 0);
   * ```
   */
  openOrders(token?: number): readonly OpenOrder[];
  /**
   * The service's instrument master, loaded before `setup`: synchronous lookups by symbol
   * or token, `undefined` on a miss.
   *
   * @example
   * ```ts
   * const sbin = ctx.instruments.lookup({ exchange: 'NSE', symbol: 'SBIN-EQ' });
   * ```
   */
  readonly instruments: InstrumentLookup;
  /**
   * Publishes an indicator's value now (e.g. the fast and slow SMA): logged at debug level
   * and recorded for the backtest report's price chart (`plots` in report.json). Plot a
   * price-like value in paise, as every price here is, so it shares the price axis; a
   * value that is not a finite number is ignored.
   *
   * @example
   * ```ts
   * ctx.plot('sma-fast', fast.getResult());
   * ```
   */
  plot(name: string, value: number): void;
}

/**
 * One value a strategy plotted (`ctx.plot`): who, which series, when (epoch ms, the
 * strategy's clock) and the value as given (paise for a price-like series).
 */
export interface PlotPoint {
  strategyId: string;
  name: string;
  at: number;
  value: number;
}
