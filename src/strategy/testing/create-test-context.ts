import pino from 'pino';
import { BehaviorSubject, defer, filter, map, Observable, Subject } from 'rxjs';
import type { FullQuote, LtpQuote, OhlcvQuote, Quote } from '../../api/schemas/quote.ts';
import type { Greeks } from '../../api/schemas/utilities.ts';
import type { TradingCalendar } from '../../calendar/trading-calendar.ts';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import type { Instrument } from '../../domain/intents.ts';
import type { OpenOrder, OrderEvent, Position } from '../../domain/order-events.ts';
import type { QuoteMode } from '../../domain/order-params.ts';
import type { CandleHistory } from '../../market-data/candles/candle-history.ts';
import { CandleHub } from '../../market-data/candles/candle-hub.ts';
import type { HealthEvent } from '../../market-data/health.ts';
import { InstrumentMaster } from '../../market-data/instruments/instrument-master.ts';
import type { MarketGreeks, MarketQuote } from '../../market-data/market-quote.ts';
import {
  type OptionChainSource,
  resolveOptionChain,
} from '../../market-data/options/option-chain-resolver.ts';
import { modeCovers, projectQuote } from '../../market-data/project-quote.ts';
import { buildContext } from '../build-context.ts';
import type { PlotPoint, StrategyContext } from '../strategy-context.ts';

/** A strategy context on a virtual clock, fed by hand. */
export interface TestContext<P> {
  ctx: StrategyContext<P>;
  clock: VirtualClock;
  /** Publishes a quote as the bus would (full, ohlcv or ltp shape; candles need volume). */
  pushQuote(quote: FullQuote | OhlcvQuote | LtpQuote, mode?: QuoteMode): void;
  /** Publishes greeks of a token. */
  pushGreeks(token: number, greeks: Greeks): void;
  /** Publishes an order event for this strategy. */
  pushOrderEvent(event: OrderEvent): void;
  /** Replaces the positions (`positions$` and `ctx.position`). */
  setPositions(positions: Position[]): void;
  /** Replaces the working orders `ctx.openOrders` (and `ctx.intents.target`) see. */
  setOpenOrders(orders: OpenOrder[]): void;
  /** What the strategy plotted (`ctx.plot`) so far, in order. */
  readonly plots: readonly PlotPoint[];
}

/**
 * A harness for testing a strategy in virtual time: no network, no timers. Push quotes,
 * advance the clock, and collect the intents `setup` emits.
 *
 * @example
 * ```ts
 * const t = createTestContext({ strategyId: 'sma', params, calendar, start: Date.parse('2026-11-20T03:45:00Z') });
 * const intents: OrderIntent[] = [];
 * strategy.setup(t.ctx).subscribe((i) => intents.push(i));
 * t.pushQuote({ token: 3045, ltp: 80000, close: 79900 }, 'ltp');
 * t.clock.advanceBy(60_000);
 * ```
 */
export function createTestContext<P>(options: {
  strategyId: string;
  params: P;
  calendar: TradingCalendar;
  start: number;
  /** Answers option-chain lookups; default: none listed. */
  optionChains?: OptionChainSource;
  /** Warm-up candles for `candles$(…, { history })`; default none (cold start). */
  candleHistory?: CandleHistory;
  /** What `ctx.instruments` finds (the instrument master's rows); default: every lookup misses. */
  instruments?: readonly Instrument[];
}): TestContext<P> {
  const clock = new VirtualClock(options.start);
  const quotes = new Subject<MarketQuote>();
  const greeks = new Subject<MarketGreeks>();
  const orderEvents = new Subject<OrderEvent>();
  const positions = new BehaviorSubject<Position[]>([]);
  let openOrders: OpenOrder[] = [];
  const plots: PlotPoint[] = [];
  const latest = new Map<number, MarketQuote>();

  const quote$ = <M extends QuoteMode>(token: number, mode: M): Observable<MarketQuote<M>> =>
    new Observable<MarketQuote>((sub) => {
      const last = latest.get(token);
      if (last !== undefined) sub.next(last);
      return quotes.pipe(filter((q) => q.token === token)).subscribe(sub);
    }).pipe(
      filter((q) => modeCovers(q.mode, mode)),
      map((q) => ({ ...q, mode, quote: projectQuote(q.quote, q.mode, mode) }) as MarketQuote<M>),
    );

  const candles = new CandleHub({
    feed: { quote$ },
    clock,
    calendar: () => options.calendar,
    ...(options.candleHistory === undefined ? {} : { history: options.candleHistory }),
  });

  const ctx = buildContext<P>({
    instruments: new InstrumentMaster(options.instruments ?? []),
    strategyId: options.strategyId,
    params: options.params,
    clock,
    calendar: options.calendar,
    market: {
      quote$,
      quotes$: <M extends QuoteMode>(tokens: readonly number[], mode: M) =>
        new Observable<MarketQuote<M>>((sub) => {
          const subs = tokens.map((t) => quote$(t, mode).subscribe((q) => sub.next(q)));
          return () => {
            for (const s of subs) s.unsubscribe();
          };
        }),
      greeks$: (tokens) => greeks.pipe(filter((g) => tokens.includes(g.token))),
      // Healthy market data, for ever (no bus here to fail).
      health$: new BehaviorSubject<HealthEvent>({ status: 'ok', at: options.start }),
      // Candles from the pushed quotes that carry volume (full, ohlcv), as the kernel builds them.
      candles$: (token, interval, opts) => candles.candles$(token, interval, opts),
    },
    options: {
      chain$: (request) =>
        defer(() =>
          resolveOptionChain(
            options.optionChains ?? {
              optionChainSymbols: async () => ({}),
              optionChain: async () => [],
            },
            clock,
            request,
          ),
        ),
    },
    orderEvents$: orderEvents,
    positions$: positions,
    state: {
      position: (id, token) =>
        positions.value.find((p) => p.strategyId === id && p.token === token),
      openOrders: (_id, token) =>
        openOrders.filter((o) => token === undefined || o.token === token),
    },
    logger: pino({ level: 'silent' }),
    plot: (point) => plots.push(point),
  });

  return {
    ctx,
    clock,
    plots,
    pushQuote(quote, mode) {
      const m: QuoteMode = mode ?? ('asks' in quote ? 'full' : 'volume' in quote ? 'ohlcv' : 'ltp');
      const q: MarketQuote = {
        token: quote.token,
        mode: m,
        quote: quote as Quote,
        sourceTime: clock.now(),
        receivedAt: clock.now(),
      };
      latest.set(quote.token, q);
      quotes.next(q);
    },
    pushGreeks(token, g) {
      greeks.next({ token, greeks: g, receivedAt: clock.now() });
    },
    pushOrderEvent(event) {
      orderEvents.next(event);
    },
    setPositions(ps) {
      positions.next(ps);
    },
    setOpenOrders(orders) {
      openOrders = orders;
    },
  };
}
