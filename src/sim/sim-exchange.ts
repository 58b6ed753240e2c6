import type {
  OrderBookRecord,
  OrderHistoryRecord,
  TradeBookRecord,
} from '../api/schemas/order-records.ts';
import type {
  MessageResult,
  ModifyOrderRequest,
  PlaceOrderRequest,
  PlaceOrderResult,
} from '../api/schemas/order-requests.ts';
import type { Quote } from '../api/schemas/quote.ts';
import type {
  Greeks,
  Holidays,
  IndexRecord,
  OptionChainEntry,
  OptionChainRequest,
  OptionChainSymbols,
} from '../api/schemas/utilities.ts';
import { TradingCalendar } from '../calendar/trading-calendar.ts';
import type { Clock } from '../clock/clock.ts';
import { istDayStart } from '../domain/ist.ts';
import type { MarketSessions } from '../domain/market-sessions.ts';
import { formatRupees } from '../domain/money.ts';
import type { QuoteMode, Variety } from '../domain/order-params.ts';
import { toModifyParams } from './engine/modify-params.ts';
import { CANCEL_ACCEPTED, MODIFY_ACCEPTED, OrderEngine } from './engine/order-engine.ts';
import { toHistory, toOrderBookRecord, toTradeBookRecord } from './engine/order-records.ts';
import { toOrderParams } from './engine/to-order-params.ts';
import { formatTimeStamp } from './ist-time.ts';
import { CandleTape } from './market/candle-tape.ts';
import { HistoryModel } from './market/history-model.ts';
import { InstrumentUniverse } from './market/instrument-universe.ts';
import type { SimInstrument } from './market/sim-instrument.ts';
import { SimMarket } from './market/sim-market.ts';
import { badRequest, notFound } from './sim-error.ts';
import { istYear, simHolidays, simHolidaysFor } from './sim-holidays.ts';

/** Options of {@link SimExchange}. */
export interface SimExchangeOptions {
  /** Time source; the market moves to `clock.now()` at each call. */
  clock: Clock;
  /** Seed of the price paths; default 1. */
  seed?: number;
  /** Holidays the exchange serves and trades by; default the simulator's calendar of each year (`simHolidays`). */
  holidays?: Holidays;
  /** Session rules; default `TradingCalendar.fromHolidays(holidays)`. */
  hours?: MarketSessions;
  /** Modifications allowed per order; default 25. */
  maxModifications?: number;
  /** Instruments; default {@link InstrumentUniverse.standard} at the clock's start. */
  universe?: InstrumentUniverse;
}

/**
 * The simulated exchange in process: every operation of spec §4 as a method, taking and
 * returning the wire shapes. The HTTP server is a thin adapter over it; tests and tools
 * can call it directly. Refusals are thrown as {@link SimError}.
 *
 * @example
 * ```ts
 * const ex = new SimExchange({ clock: new VirtualClock(Date.parse('2026-01-05T04:00:00Z')) });
 * ex.quote('full', 3045).ltp; // SBIN in paise
 * ```
 */
export class SimExchange {
  readonly clock: Clock;
  readonly market: SimMarket;
  readonly engine: OrderEngine;
  readonly hours: MarketSessions;
  /** Minute bars of every underlying, for `GET /candle/...` (see `http/candle-route.ts`). */
  readonly candles: CandleTape;
  /** Holidays given in the options; without them, the simulator's calendar of each year. */
  private readonly holidayData: Holidays | undefined;

  constructor(options: SimExchangeOptions) {
    this.clock = options.clock;
    this.holidayData = options.holidays;
    const startAt = this.clock.now();
    const year = istYear(startAt);
    // The session rules span the years around the start, so a run over New Year trades on.
    this.hours =
      options.hours ??
      TradingCalendar.fromHolidays(this.holidayData ?? simHolidaysFor([year - 1, year, year + 1]));
    const universe = options.universe ?? InstrumentUniverse.standard(startAt, this.hours);
    this.market = new SimMarket({
      universe,
      hours: this.hours,
      seed: options.seed ?? 1,
      startAt,
    });
    // The past before the start comes from a pure history model (same seed, same past).
    this.candles = new CandleTape(this.hours, {
      model: new HistoryModel({ seed: options.seed ?? 1, hours: this.hours, startAt }),
      instrument: (token) => this.market.instrument(token),
    });
    this.engine = new OrderEngine({
      clock: this.clock,
      market: this.market,
      hours: this.hours,
      ...(options.maxModifications === undefined
        ? {}
        : { maxModifications: options.maxModifications }),
    });
  }

  /** Brings prices and resting orders up to the clock's now. Every operation calls it. */
  sync(): void {
    const { engine, market, candles } = this;
    market.advanceTo(this.clock.now(), {
      onOpen: (at) => engine.onOpen(at),
      onClose: (at) => engine.onClose(at),
      onStep: (at) => {
        engine.onStep(at);
        for (const u of market.universe.underlyings) {
          const trade = market.trade(u.token);
          if (trade !== undefined) candles.onStep(at, u.token, trade);
        }
      },
    });
  }

  /** `POST /info/quote/:mode`. */
  quote<M extends QuoteMode>(mode: M, token: number): Quote<M> {
    this.sync();
    const q = this.market.quote(token, mode, this.clock.now());
    if (q === undefined) throw notFound(`Unknown instrument token ${token}`);
    return q;
  }

  /** `POST /info/quotes/:mode`: one quote per token, in the order asked. */
  quotes<M extends QuoteMode>(mode: M, tokens: readonly number[]): Array<Quote<M>> {
    this.sync();
    const unknown = tokens.filter((t) => this.market.instrument(t) === undefined);
    if (unknown.length > 0) throw notFound(`Unknown instrument tokens: ${unknown.join(', ')}`);
    const now = this.clock.now();
    return tokens.map((t) => this.market.quote(t, mode, now) as Quote<M>);
  }

  /**
   * `POST /order/:variety`. Business-rule failures give a REJECTED order, not an error;
   * `rejectReason` rejects an order the rules would accept (fault injection).
   */
  placeOrder(variety: Variety, body: PlaceOrderRequest, rejectReason?: string): PlaceOrderResult {
    this.sync();
    const { params, reason } = toOrderParams(variety, body, (t) => this.market.instrument(t));
    const order = this.engine.place(params, reason ?? rejectReason);
    return { orderNo: order.id, requestTime: formatTimeStamp(order.placedAt) };
  }

  /**
   * `PATCH /order/:variety/:order_id`. The path's variety is not checked against the
   * order's (pytiqs modifies cover orders at `/order/regular/<id>`); empty
   * `bookLossPrice`/`bookProfitPrice` keep the order's values.
   */
  modifyOrder(variety: Variety, orderId: string, body: ModifyOrderRequest): MessageResult {
    this.sync();
    const { params, reason } = toModifyParams(this.engine.order(orderId), variety, body, (t) =>
      this.market.instrument(t),
    );
    if (reason !== undefined) throw badRequest(reason);
    this.engine.modify(orderId, variety, params);
    return { message: MODIFY_ACCEPTED };
  }

  /** `DELETE /order/:variety/:order_id`; any variety in the path cancels the order. */
  cancelOrder(variety: Variety, orderId: string): MessageResult {
    this.sync();
    this.engine.cancel(orderId, variety);
    return { message: CANCEL_ACCEPTED };
  }

  /** `GET /order/:order_id`: history, newest first. */
  orderHistory(orderId: string): OrderHistoryRecord[] {
    this.sync();
    const order = this.engine.order(orderId);
    if (order === undefined) throw notFound(`No order ${orderId}`);
    return toHistory(order);
  }

  /** `GET /user/orders`: the day's order book ({@link OrderEngine.dayOrders}), newest first. */
  orderBook(): OrderBookRecord[] {
    this.sync();
    return this.engine.dayOrders(istDayStart(this.clock.now())).map(toOrderBookRecord).reverse();
  }

  /** `GET /user/trades`: today's fills, one record each, newest first. */
  tradeBook(): TradeBookRecord[] {
    this.sync();
    const out: TradeBookRecord[] = [];
    for (const fill of this.engine.dayFills(istDayStart(this.clock.now()))) {
      const order = this.engine.order(fill.orderId);
      if (order !== undefined) out.push(toTradeBookRecord(order, fill));
    }
    return out.reverse();
  }

  /** `GET /info/holidays`. */
  holidays(): Holidays {
    // Like the service: the current year's list.
    return structuredClone(this.holidayData ?? simHolidays(istYear(this.clock.now())));
  }

  /** `GET /info/index-list`. */
  indexList(): IndexRecord[] {
    return this.market.universe.underlyings
      .filter((i) => i.kind === 'index')
      .map((i) => ({ name: i.name, token: String(i.token) }));
  }

  /** `GET /info/option-chain-symbols`: live expiries per index, `DD-MON-YYYY`, soonest first. */
  optionChainSymbols(): OptionChainSymbols {
    this.sync();
    const out: OptionChainSymbols = {};
    for (const index of this.market.universe.underlyings) {
      if (index.kind !== 'index') continue;
      const expiries = new Set<string>();
      for (const o of this.market.universe.optionsOf(index.token)) {
        if (o.option !== undefined && o.option.expiresAt > this.market.time) {
          expiries.add(o.option.expiry);
        }
      }
      out[index.symbol] = [...expiries];
    }
    return out;
  }

  /**
   * `POST /info/option-chain`: `count` calls then `count` puts, centred on the strike
   * nearest the spot (fewer when the chain has fewer strikes).
   */
  optionChain(req: OptionChainRequest): OptionChainEntry[] {
    this.sync();
    const token = Number(req.token);
    const index = this.market.instrument(token);
    if (index === undefined) throw notFound(`Unknown token ${req.token}`);
    if (index.kind !== 'index') throw badRequest(`Token ${req.token} is not an index`);
    if (req.exchange !== 'INDEX' && req.exchange !== 'NSE') {
      throw badRequest(`exchange must be INDEX for an index underlying, not ${req.exchange}`);
    }
    const options = this.market.universe
      .optionsOf(token)
      .filter((o) => o.option?.expiry === req.expiry);
    if (options.length === 0) throw notFound(`No ${index.symbol} options expire on ${req.expiry}`);
    const strikes = [...new Set(options.map((o) => o.option?.strike ?? 0))].sort((a, b) => a - b);
    const spot = this.market.ltp(token);
    let atm = 0;
    strikes.forEach((k, i) => {
      if (Math.abs(k - spot) < Math.abs((strikes[atm] ?? 0) - spot)) atm = i;
    });
    const count = Math.min(Number(req.count), strikes.length);
    const from = Math.max(0, Math.min(atm - Math.floor((count - 1) / 2), strikes.length - count));
    const window = new Set(strikes.slice(from, from + count));
    const entry = (o: SimInstrument): OptionChainEntry => ({
      exchange: o.exchange,
      symbol: o.symbol,
      token: String(o.token),
      optionType: o.option?.optionType ?? 'CE',
      strikePrice: formatRupees(o.option?.strike ?? 0, o.pricePrecision),
      pricePrecision: String(o.pricePrecision),
      tickSize: formatRupees(o.tick, o.pricePrecision),
      lotSize: String(o.lotSize),
    });
    const pick = (type: 'CE' | 'PE'): OptionChainEntry[] =>
      options
        .filter((o) => o.option?.optionType === type && window.has(o.option.strike))
        .map(entry);
    return [...pick('CE'), ...pick('PE')];
  }

  /** `POST /info/greeks`: one entry per token, in the order asked. */
  greeks(tokens: readonly number[]): Greeks[] {
    this.sync();
    return tokens.map((t) => {
      const inst = this.market.instrument(t);
      if (inst === undefined) throw notFound(`Unknown instrument token ${t}`);
      const g = this.market.greeks(t);
      if (g === undefined) throw badRequest(`Token ${t} is not an option`);
      return g;
    });
  }
}
