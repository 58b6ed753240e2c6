import pino from 'pino';
import { BehaviorSubject, type Observable } from 'rxjs';
import { RefusedError } from '../../src/api/errors/refused-error.ts';
import type { FullQuote } from '../../src/api/schemas/quote.ts';
import { TiqsClient } from '../../src/api/tiqs-client.ts';
import { VirtualClock } from '../../src/clock/virtual-clock.ts';
import type { Broker } from '../../src/execution/broker.ts';
import type { MarketQuote } from '../../src/market-data/market-quote.ts';
import { PaperBroker } from '../../src/paper/paper-broker.ts';
import { startSimulator } from '../../src/sim/http/start-simulator.ts';
import { SimError } from '../../src/sim/sim-error.ts';
import { SimExchange } from '../../src/sim/sim-exchange.ts';

/**
 * One implementation of the {@link Broker} port set up for the contract suite, on a
 * virtual clock the suite moves. `quote` reads the market beside the port (the suite
 * needs the touch to price a resting order), never through the broker under test.
 */
export interface BrokerVenue {
  readonly broker: Broker;
  readonly clock: VirtualClock;
  /** The market's full quote of `token` now. */
  quote(token: number): FullQuote;
  /** Moves virtual time on by `ms`; the venue's market and resting orders move with it. */
  advance(ms: number): Promise<void>;
  close(): Promise<void>;
}

/** Makes a fresh venue whose clock starts at `start` (epoch ms). */
export type MakeVenue = (start: number) => Promise<BrokerVenue>;

/** Seed of every venue's price paths, so all three see the same market. */
const SEED = 7;

/** `TiqsClient` over loopback HTTP to the in-process simulator (live mode's path). */
export const tiqsClientVenue: MakeVenue = async (start) => {
  const clock = new VirtualClock(start);
  const sim = await startSimulator({ clock, seed: SEED, rateLimits: false });
  const broker = new TiqsClient({
    baseUrl: sim.url,
    appId: 'sim-app',
    token: 'sim-token',
    clock,
    timeoutMs: 5_000,
    retry: { limit: 0 },
  });
  return {
    broker,
    clock,
    quote: (token) => sim.exchange.quote('full', token),
    advance: (ms) => clock.advanceByAsync(ms),
    close: () => sim.close(),
  };
};

/**
 * `SimExchange` called in process. It is not a `Broker` by itself (synchronous, throws
 * `SimError`); this adapter does what the HTTP layer and the client do between them:
 * answers asynchronously and turns a refusal into the client's `RefusedError`.
 */
export const simExchangeVenue: MakeVenue = async (start) => {
  const clock = new VirtualClock(start);
  const ex = new SimExchange({ clock, seed: SEED });
  const call = async <T>(operation: string, run: () => T): Promise<T> => {
    try {
      return run();
    } catch (err) {
      if (!(err instanceof SimError)) throw err;
      throw new RefusedError(`${operation}: ${err.message}`, {
        operation,
        status: err.status,
        errorCode: err.errorCode,
        serviceMessage: err.message,
        cause: err,
      });
    }
  };
  const broker: Broker = {
    placeOrder: (v, r) => call('placeOrder', () => ex.placeOrder(v, r)),
    modifyOrder: (v, id, r) => call('modifyOrder', () => ex.modifyOrder(v, id, r)),
    cancelOrder: (v, id) => call('cancelOrder', () => ex.cancelOrder(v, id)),
    orderHistory: (id) => call('orderHistory', () => ex.orderHistory(id)),
    orderBook: () => call('orderBook', () => ex.orderBook()),
    tradeBook: () => call('tradeBook', () => ex.tradeBook()),
  };
  return {
    broker,
    clock,
    quote: (token) => ex.quote('full', token),
    advance: async (ms) => clock.advanceBy(ms),
    close: async () => {},
  };
};

/** A paper step: the feed publishes a quote of every followed token this often. */
const PAPER_STEP_MS = 60_000;

/**
 * `PaperBroker` (paper mode and backtests) filling against quotes of a seeded
 * `SimExchange`, published the way the bus does: the latest quote at once to a new
 * subscriber, then a fresh one each minute of virtual time, closed hours included
 * (the bus polls from its warm-up before the open, so a close is seen before the next
 * session starts).
 */
export const paperVenue: MakeVenue = async (start) => {
  const clock = new VirtualClock(start);
  const market = new SimExchange({ clock, seed: SEED });
  const feeds = new Map<number, BehaviorSubject<MarketQuote<'full'>>>();
  const snapshot = (token: number): MarketQuote<'full'> => {
    const quote = market.quote('full', token);
    return { token, mode: 'full', quote, sourceTime: clock.now(), receivedAt: clock.now() };
  };
  const quote$ = (token: number): Observable<MarketQuote<'full'>> => {
    let feed = feeds.get(token);
    if (feed === undefined) {
      feed = new BehaviorSubject(snapshot(token));
      feeds.set(token, feed);
    }
    return feed.asObservable();
  };
  const broker = new PaperBroker({
    clock,
    bus: { quote$: quote$ as never },
    hours: market.hours,
    logger: pino({ level: 'silent' }),
  });
  return {
    broker,
    clock,
    quote: (token) => market.quote('full', token),
    advance: async (ms) => {
      const end = clock.now() + ms;
      while (clock.now() < end) {
        clock.advanceTo(Math.min(end, clock.now() + PAPER_STEP_MS));
        for (const [token, feed] of feeds) feed.next(snapshot(token));
      }
    },
    close: async () => broker.close(),
  };
};
