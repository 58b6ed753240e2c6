import pino from 'pino';
import { BehaviorSubject, EMPTY } from 'rxjs';
import { TradingCalendar } from '../../src/calendar/trading-calendar.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import type { PlaceIntent } from '../../src/domain/intents.ts';
import type { MarketSessions } from '../../src/domain/market-sessions.ts';
import type {
  ExecutionEngine,
  ExecutionEngineOptions,
} from '../../src/execution/execution-engine.ts';
import { type Journal, MemoryJournal } from '../../src/execution/journal.ts';
import { engineOn } from '../../src/execution/testing/engine-fixtures.ts';
import { PaperBroker } from '../../src/paper/paper-broker.ts';
import { sbinFullQuote } from '../../src/paper/testing/sbin-full-quote.ts';
import { SIM_HOLIDAYS } from '../../src/sim/sim-holidays.ts';
import { buildContext } from '../../src/strategy/build-context.ts';
import type { MarketView, StrategyContext } from '../../src/strategy/strategy-context.ts';

/** SBIN on NSE, as intents name it. */
export const SBIN = {
  exchange: 'NSE',
  token: 3045,
  symbol: 'SBIN-EQ',
  lotSize: 1,
  tickSize: 5,
} as const;

/** A place intent of strategy `s1` (buy 10 SBIN at market unless changed). */
export const place = (
  id: string,
  extra: Partial<PlaceIntent> = {},
): PlaceIntent & { strategyId: string } => ({
  kind: 'place',
  strategyId: 's1',
  id,
  instrument: SBIN,
  side: 'B',
  quantity: 10,
  orderType: 'MKT',
  product: 'I',
  ...extra,
});

/** The simulator's calendar (its holidays), for sessions and the trading window. */
export const SIM_CALENDAR: TradingCalendar = TradingCalendar.fromHolidays(SIM_HOLIDAYS);

/**
 * A paper venue (the simulator's order engine filling against a scripted SBIN quote) on
 * a virtual clock starting at `start`, and engines over it sharing one journal: a second
 * engine is the bot after a restart, the venue going on as it was. `context` builds a
 * strategy's context over an engine the way the kernel's strategy runner does.
 */
export function paperStateVenue(
  start: number,
  options: { journal?: Journal; sessions?: MarketSessions } = {},
) {
  const clock = new VirtualClock(start);
  const feed = new BehaviorSubject(sbinFullQuote(80_000, clock.now()));
  const broker = new PaperBroker({
    clock,
    bus: { quote$: () => feed.asObservable() as never },
    hours: { isOpen: () => true },
    logger: pino({ level: 'silent' }),
  });
  const journal = options.journal ?? new MemoryJournal();
  const engine = (extra: Partial<ExecutionEngineOptions> = {}): ExecutionEngine =>
    engineOn(broker, clock, journal, {
      quote: () => ({ ltp: feed.value.quote.ltp, lowerLimit: 72_000, upperLimit: 88_000 }),
      trackIntervalMs: 1_000,
      risk: { marketProtectionPercent: 0 },
      ...(options.sessions === undefined ? {} : { sessions: options.sessions }),
      ...extra,
    });
  const context = (on: ExecutionEngine, strategyId = 's1'): StrategyContext =>
    buildContext({
      strategyId,
      params: {},
      clock,
      calendar: SIM_CALENDAR,
      // No market data: these tests read state only.
      market: {
        quote$: () => EMPTY,
        quotes$: () => EMPTY,
        greeks$: () => EMPTY,
        candles$: () => EMPTY,
        health$: EMPTY,
      } as unknown as MarketView,
      options: { chain$: () => EMPTY },
      orderEvents$: on.events$,
      positions$: EMPTY,
      logger: pino({ level: 'silent' }),
      state: {
        position: (id, token) => on.positions.position(id, token),
        openOrders: (id, token) => on.openOrders(id, token),
      },
    });
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  /** `ms` of virtual time, in quarter seconds, letting the tracker and the venue act. */
  const wait = async (ms = 1_000): Promise<void> => {
    for (let t = 0; t < ms; t += 250) {
      clock.advanceBy(250);
      await turn();
      await turn();
    }
  };
  /** A new price (paise mid), then a second for the venue and the tracker. */
  const price = async (mid: number): Promise<void> => {
    feed.next(sbinFullQuote(mid, clock.now()));
    await wait();
  };
  return { clock, broker, journal, engine, context, wait, price, turn };
}
