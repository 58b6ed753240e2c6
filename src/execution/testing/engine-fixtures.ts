import type { OrderBookRecord, TradeBookRecord } from '../../api/schemas/order-records.ts';
import type { PlaceOrderResult } from '../../api/schemas/order-requests.ts';
import type { Clock } from '../../clock/clock.ts';
import type { PlaceIntent } from '../../domain/intents.ts';
import type { MarketSessions } from '../../domain/market-sessions.ts';
import { memoryLogger } from '../../market-data/testing/fake-quote-source.ts';
import type { Broker } from '../broker.ts';
import type { ExecutionEngineOptions } from '../engine-options.ts';
import { ExecutionEngine } from '../execution-engine.ts';
import type { Journal } from '../journal.ts';
import { type TrackedOrder, trackedOrder } from '../tracked-order.ts';
import { toPlaceRequest } from '../wire-order.ts';

/** A market that is always open. */
export const OPEN_SESSION: MarketSessions = {
  isOpen: () => true,
  nextOpen: () => undefined,
  nextClose: () => undefined,
};

/** A place intent of strategy `s1` for one SBIN at market, changed by `overrides`. */
export function placeIntent(
  id: string,
  overrides: Partial<PlaceIntent> = {},
): PlaceIntent & { strategyId: string } {
  return {
    kind: 'place',
    strategyId: 's1',
    id,
    instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
    side: 'B',
    quantity: 1,
    orderType: 'MKT',
    product: 'I',
    ...overrides,
  };
}

/** Order `n` of strategy `s1` as the journal keeps it: tag `s1-n`, one SBIN at market. */
export function journalOrder(n: number): TrackedOrder {
  const intent: PlaceIntent = {
    kind: 'place',
    id: `e${n}`,
    instrument: { exchange: 'NSE', token: 3045, symbol: 'SBIN-EQ' },
    side: 'B',
    quantity: 1,
    orderType: 'MKT',
    product: 'I',
  };
  const tag = `s1-${n}`;
  return trackedOrder({
    strategyId: 's1',
    intentId: intent.id,
    tag,
    intent,
    request: toPlaceRequest(intent, tag, false),
    placedAt: 1_000 + n,
  });
}

/** Lets promise continuations run (no timers: the clock is virtual). */
export async function settle(turns = 50): Promise<void> {
  for (let i = 0; i < turns; i++) await Promise.resolve();
}

/** Options of {@link scriptedBroker}. */
export interface ScriptedBrokerOptions {
  /** `empty`: both books read empty at once; `stalled`: they hang until `release()`. */
  books?: 'empty' | 'stalled';
  /** `refuse`: every placement rejects (a test that must not place). */
  placements?: 'accept' | 'refuse';
}

/**
 * A broker that records what it is asked: placements are accepted as `N1`, `N2`, …,
 * modifies and cancels succeed, and the books read empty (at once, or after `release()`).
 */
export function scriptedBroker(options: ScriptedBrokerOptions = {}) {
  const placed: Array<{ tag: string; quantity: string; price: string }> = [];
  const cancelled: string[] = [];
  const modified: string[] = [];
  let release: () => void = () => undefined;
  const gate =
    options.books === 'stalled'
      ? new Promise<void>((resolve) => {
          release = resolve;
        })
      : Promise.resolve();
  const broker: Broker = {
    placeOrder: (_variety, request) => {
      if (options.placements === 'refuse') return Promise.reject(new Error('must not place'));
      placed.push({ tag: request.tags ?? '', quantity: request.quantity, price: request.price });
      return Promise.resolve({ orderNo: `N${placed.length}` } as PlaceOrderResult);
    },
    modifyOrder: (_variety, orderId) => {
      modified.push(orderId);
      return Promise.resolve({} as never);
    },
    cancelOrder: (_variety, orderId) => {
      cancelled.push(orderId);
      return Promise.resolve({} as never);
    },
    orderHistory: () => Promise.resolve([]),
    orderBook: () => gate.then((): OrderBookRecord[] => []),
    tradeBook: () => gate.then((): TradeBookRecord[] => []),
  };
  return { broker, placed, cancelled, modified, release: () => release() };
}

/**
 * An engine over `broker` and `journal` in an always-open market, logging to memory: a
 * second one on the same journal is the engine after a restart.
 */
export function engineOn(
  broker: Broker,
  clock: Clock,
  journal: Journal,
  options: Partial<ExecutionEngineOptions> = {},
): ExecutionEngine {
  return new ExecutionEngine({
    broker,
    clock,
    logger: memoryLogger().logger,
    sessions: OPEN_SESSION,
    journal,
    ...options,
  });
}
