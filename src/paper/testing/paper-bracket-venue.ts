import pino from 'pino';
import { BehaviorSubject, map } from 'rxjs';
import { VirtualClock } from '../../clock/virtual-clock.ts';
import type { BracketIntent } from '../../domain/intents.ts';
import type { OrderEvent } from '../../domain/order-events.ts';
import type { ExecutionEngine, ExecutionEngineOptions } from '../../execution/execution-engine.ts';
import { type Journal, MemoryJournal } from '../../execution/journal.ts';
import { engineOn } from '../../execution/testing/engine-fixtures.ts';
import { PaperBroker } from '../paper-broker.ts';
import { sbinFullQuote } from './sbin-full-quote.ts';

/** SBIN on NSE, as a bracket names it. */
const SBIN = {
  exchange: 'NSE',
  token: 3045,
  symbol: 'SBIN-EQ',
  lotSize: 1,
  tickSize: 5,
} as const;

const START = Date.parse('2026-11-20T10:00:00+05:30');

/** A bracket of strategy `s1`: buy 10 SBIN at market, stop 400 paise below, changed by `extra`. */
export function bracketIntent(
  id: string,
  extra: Partial<BracketIntent> = {},
): BracketIntent & { strategyId: string } {
  return {
    kind: 'bracket',
    strategyId: 's1',
    id,
    instrument: SBIN,
    side: 'B',
    quantity: 10,
    product: 'I',
    entry: { orderType: 'MKT' },
    stopLoss: { points: 400 },
    ...extra,
  };
}

/** An engine over the venue, with the events it published. */
export interface VenueEngine {
  engine: ExecutionEngine;
  events: OrderEvent[];
}

/**
 * A paper venue (the simulator's order engine, filling against a scripted SBIN quote)
 * on a virtual clock, and engines over it sharing one journal: a second engine is the
 * bot after a restart, the venue (the broker) going on as it was.
 */
export function paperBracketVenue(options: { depth?: number; journal?: Journal } = {}) {
  const clock = new VirtualClock(START);
  const quoteOf = (mid: number) => {
    const q = sbinFullQuote(mid, clock.now());
    if (options.depth !== undefined) {
      for (const level of [...q.quote.bids, ...q.quote.asks]) level.quantity = options.depth;
    }
    return q;
  };
  const feed = new BehaviorSubject(quoteOf(80_000));
  const broker = new PaperBroker({
    clock,
    bus: { quote$: () => feed.asObservable() as never },
    hours: { isOpen: () => true },
    logger: pino({ level: 'silent' }),
  });
  const journal = options.journal ?? new MemoryJournal();
  const engine = (extra: Partial<ExecutionEngineOptions> = {}): VenueEngine => {
    const made = engineOn(broker, clock, journal, {
      quote: () => ({ ltp: feed.value.quote.ltp, lowerLimit: 72_000, upperLimit: 88_000 }),
      marks: () => feed.pipe(map((q) => q.quote.ltp)),
      trackIntervalMs: 1_000,
      risk: { marketProtectionPercent: 0 },
      ...extra,
    });
    const events: OrderEvent[] = [];
    made.events$.subscribe((e) => events.push(e));
    return { engine: made, events };
  };
  /** Lets every promise continuation run (a turn of the event loop; no time passes). */
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  /** One second for the tracker to read the books and the brackets to act; no new price. */
  const wait = async (): Promise<void> => {
    for (let i = 0; i < 4; i++) {
      clock.advanceBy(250);
      await turn();
      await turn();
    }
  };
  /** A new price, then one second for the tracker to read the books and the brackets to act. */
  const price = async (mid: number): Promise<void> => {
    feed.next(quoteOf(mid));
    await turn();
    for (let i = 0; i < 4; i++) {
      clock.advanceBy(250);
      await turn();
      await turn();
    }
  };
  return { clock, broker, journal, engine, price, wait, turn, feed };
}
