import type { Logger } from 'pino';
import { BehaviorSubject, EMPTY, Observable, Subject, type Subscriber } from 'rxjs';
import type { Quote } from '../api/schemas/quote.ts';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import { VirtualClock } from '../clock/virtual-clock.ts';
import type { QuoteMode } from '../domain/order-params.ts';
import type { OrderEvent, Position } from '../execution/order-events.ts';
import { PositionBook } from '../execution/position-book.ts';
import { toPlaceRequest } from '../execution/wire-order.ts';
import type { MarketGreeks, MarketQuote } from '../market-data/market-quote.ts';
import { projectQuote } from '../market-data/project-quote.ts';
import { BusMarketView } from '../runtime/bus-market-view.ts';
import { OrderEngine } from '../sim/engine/order-engine.ts';
import { toOrderParams } from '../sim/engine/to-order-params.ts';
import { buildContext } from '../strategy/build-context.ts';
import type { Instrument, OrderIntent, PlaceIntent } from '../strategy/intents.ts';
import type { LoadedStrategy } from '../strategy/load-strategy.ts';
import type { MarketView } from '../strategy/strategy-context.ts';
import type { Recording } from './read-recording.ts';
import { RecordReader } from './record-reader.ts';

class Channel<T> {
  readonly subs = new Set<Subscriber<T>>();
  last: T | undefined;
  readonly $ = new Observable<T>((s) => {
    this.subs.add(s);
    if (this.last !== undefined) s.next(this.last);
    return () => this.subs.delete(s);
  });
  publish(value: T): void {
    this.last = value;
    for (const s of this.subs) s.next(value);
  }
}

const MODES: readonly QuoteMode[] = ['ltp', 'ohlcv', 'full'];

/** Counts of a {@link FastReplay} run. */
export interface FastReplayStats {
  /** Records decoded (quotes and greeks). */
  events: number;
  intents: number;
  fills: number;
}

/**
 * The replay pipeline without the kernel, for throughput: decode → fan-out to the
 * strategies' streams (same `MarketQuote` shape, last-value replay like the bus) → the
 * unchanged strategy modules on a virtual clock with the calendar's schedules →
 * simulated execution with the simulator's `OrderEngine` and the paper broker's market
 * view (depth-aware, partial fills). Every record is delivered at its recorded instant,
 * with no polling in between.
 *
 * What it leaves out, next to the backtest command's kernel path: the bus's poll loop,
 * the execution engine's order tracking (fills are read from the engine directly), risk
 * checks and deferral. It exists to measure the cost of replay itself
 * (bench/backtest-replay.bench.ts); `tiqs-runner backtest` uses the kernel.
 */
export class FastReplay {
  readonly clock: VirtualClock;
  private readonly calendar: TradingCalendar;
  private readonly quotes = new Map<number, Partial<Record<QuoteMode, Channel<MarketQuote>>>>();
  private readonly greeks = new Map<number, Channel<MarketGreeks>>();
  private readonly view = new BusMarketView();
  private readonly engine: OrderEngine;
  private readonly positions = new PositionBook();
  private readonly events = new Subject<OrderEvent>();
  private readonly orders = new Map<string, { strategyId: string; intent: PlaceIntent }>();
  private readonly instruments = new Map<string, Instrument>();
  private fillCursor = 0;
  private seq = 0;
  private wasOpen = false;
  private readonly stats: FastReplayStats = { events: 0, intents: 0, fills: 0 };

  constructor(
    private readonly recording: Recording,
    private readonly strategies: readonly LoadedStrategy[],
    private readonly logger: Logger,
  ) {
    const reader = new RecordReader(recording.bytes);
    this.clock = new VirtualClock(reader.baseTime);
    this.calendar = TradingCalendar.fromHolidays(
      recording.meta.holidays ?? { holidays: {}, specialTradingDays: {} },
    );
    this.engine = new OrderEngine({ clock: this.clock, market: this.view, hours: this.calendar });
  }

  /** Replays the whole recording once and returns the counts. */
  run(): FastReplayStats {
    const market: MarketView = {
      quote$: (token, mode) => this.channel(token, mode).$ as never,
      quotes$: (tokens, mode) =>
        new Observable((s) => {
          const subs = tokens.map((t) => this.channel(t, mode).$.subscribe(s as never));
          return () => {
            for (const x of subs) x.unsubscribe();
          };
        }),
      greeks$: (tokens) =>
        new Observable<MarketGreeks>((s) => {
          const subs = tokens.map((t) => this.greeksChannel(t).$.subscribe(s));
          return () => {
            for (const x of subs) x.unsubscribe();
          };
        }),
    };
    const positions$ = new BehaviorSubject<Position[]>([]);
    const running = this.strategies.map((s) =>
      s.definition
        .setup(
          buildContext({
            strategyId: s.id,
            params: s.params,
            clock: this.clock,
            calendar: this.calendar,
            market,
            options: { chain$: () => EMPTY },
            orderEvents$: this.events,
            positions$,
            logger: this.logger,
          }),
        )
        .subscribe((intent) => this.onIntent(s.id, intent)),
    );
    const r = new RecordReader(this.recording.bytes);
    while (r.next()) {
      const t = r.time;
      if (t > this.clock.now()) this.clock.advanceTo(t);
      this.stats.events += 1;
      if (r.kind === 'greeks') {
        this.greeksChannel(r.token).publish({ token: r.token, greeks: r.greeks(), receivedAt: t });
        continue;
      }
      const mode = r.kind as QuoteMode;
      const quote = r.quote();
      const channels = this.quotes.get(r.token);
      if (channels !== undefined) {
        for (const m of MODES) {
          const ch = channels[m];
          if (ch === undefined || ch.subs.size === 0) continue;
          const q = m === mode ? quote : projectQuote(quote, mode, m);
          ch.publish({ token: r.token, mode: m, quote: q, sourceTime: t, receivedAt: t });
          if (m === mode) break;
        }
      }
      if (mode === 'full') this.step(quote, t);
    }
    for (const s of running) s.unsubscribe();
    return { ...this.stats };
  }

  private channel(token: number, mode: QuoteMode): Channel<MarketQuote> {
    let c = this.quotes.get(token);
    if (c === undefined) {
      c = {};
      this.quotes.set(token, c);
    }
    let ch = c[mode];
    if (ch === undefined) {
      ch = new Channel<MarketQuote>();
      c[mode] = ch;
    }
    return ch;
  }

  private greeksChannel(token: number): Channel<MarketGreeks> {
    let ch = this.greeks.get(token);
    if (ch === undefined) {
      ch = new Channel<MarketGreeks>();
      this.greeks.set(token, ch);
    }
    return ch;
  }

  /** A full quote is a price step for resting orders, as in the paper broker. */
  private step(quote: Quote, at: number): void {
    this.view.update(quote as never);
    const open = this.calendar.isOpen(at);
    if (open && !this.wasOpen) this.engine.onOpen(at);
    if (!open && this.wasOpen) this.engine.onClose(at);
    this.wasOpen = open;
    if (open) this.engine.onStep(at);
    this.drainFills();
  }

  private onIntent(strategyId: string, intent: OrderIntent): void {
    this.stats.intents += 1;
    if (intent.kind === 'place') {
      this.place(strategyId, intent);
      return;
    }
    if (intent.kind !== 'squareOff') return;
    for (const p of this.positions.positions(strategyId)) {
      if (p.netQuantity === 0 || (intent.token !== undefined && intent.token !== p.token)) continue;
      const instrument = this.instruments.get(p.token);
      if (instrument === undefined) continue;
      this.place(strategyId, {
        kind: 'place',
        id: `${intent.id}:${p.token}`,
        instrument,
        side: p.netQuantity > 0 ? 'S' : 'B',
        quantity: Math.abs(p.netQuantity),
        orderType: 'MKT',
        product: 'I',
      });
    }
  }

  private place(strategyId: string, intent: PlaceIntent): void {
    const { instrument } = intent;
    const token = Number(instrument.token);
    this.instruments.set(instrument.token, instrument);
    if (this.view.instrument(token) === undefined) {
      this.view.describe(token, {
        exchange: instrument.exchange,
        symbol: instrument.symbol,
        lotSize: instrument.lotSize ?? 1,
        tick: instrument.tickSize ?? 5,
      });
    }
    this.seq += 1;
    const request = toPlaceRequest(intent, `${strategyId}-${this.seq}`, false);
    const { params, reason } = toOrderParams(intent.variety ?? 'regular', request, (t) =>
      this.view.instrument(t),
    );
    const order = this.engine.place(
      params,
      reason ?? (this.view.has(token) ? undefined : 'no market data yet'),
    );
    this.orders.set(order.id, { strategyId, intent });
    this.drainFills();
  }

  private drainFills(): void {
    const fills = this.engine.fills();
    for (; this.fillCursor < fills.length; this.fillCursor++) {
      const f = fills[this.fillCursor];
      const o = f === undefined ? undefined : this.orders.get(f.orderId);
      if (f === undefined || o === undefined) continue;
      this.stats.fills += 1;
      const { instrument, side, quantity } = o.intent;
      this.positions.applyFill(
        o.strategyId,
        instrument.token,
        instrument.symbol,
        side,
        f.quantity,
        f.price,
      );
      this.events.next({
        type: f.filled >= quantity ? 'OrderFilled' : 'OrderPartiallyFilled',
        strategyId: o.strategyId,
        intentId: o.intent.id,
        tag: `${o.strategyId}-${f.orderId}`,
        orderId: f.orderId,
        at: f.at,
        fillId: f.fillId,
        fillQuantity: f.quantity,
        fillPrice: f.price,
        filledQuantity: f.filled,
        averagePrice: f.averagePrice,
        quantity,
      });
    }
  }
}
