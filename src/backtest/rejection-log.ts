import type { OrderIntent, RoutedIntent } from '../domain/intents.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import type { TransactionType } from '../domain/order-params.ts';

/**
 * An order that did not go through: `rejected` by the engine or the (paper) broker, or
 * `denied` by a risk or state check before it was sent.
 */
export interface Rejection {
  /** Epoch ms (virtual time). */
  at: number;
  strategy: string;
  /** Token of the instrument; 0 when the intent named none (a square-off of everything). */
  token: number;
  symbol?: string;
  /** Absent when nothing said it (a square-off of everything, a cancel of an unseen order): shown "—". */
  side?: TransactionType;
  /** Absent when nothing said it, like `side`. */
  quantity?: number;
  kind: 'rejected' | 'denied';
  reason: string;
}

/** What an order's intent says about its instrument, side and size. */
interface OrderFacts {
  token: number;
  symbol?: string;
  side?: TransactionType;
  quantity?: number;
}

/**
 * Keeps every rejected and denied order of a run. An `OrderRejected` event names only
 * the intent, so the place intents (from `intents$` and `OrderSubmitted`, which also
 * carries bracket legs) are remembered by strategy and id; a denied modify or cancel
 * takes its facts from the order it targets.
 *
 * @example
 * ```ts
 * const log = new RejectionLog();
 * kernel.intents$.subscribe((i) => log.onIntent(i));
 * kernel.engine.events$.subscribe((e) => log.onEvent(e));
 * log.list; // in time order
 * ```
 */
export class RejectionLog {
  readonly list: Rejection[] = [];
  private readonly orders = new Map<string, OrderFacts>();

  /** Rejected orders so far. */
  get rejected(): number {
    return this.list.filter((r) => r.kind === 'rejected').length;
  }

  /** Denied orders so far. */
  get denied(): number {
    return this.list.filter((r) => r.kind === 'denied').length;
  }

  /** Remembers a strategy's intent (its instrument and size, for a later rejection). */
  onIntent(intent: RoutedIntent): void {
    const facts = factsOf(intent);
    if (facts !== undefined) this.orders.set(key(intent.strategyId, intent.id), facts);
  }

  /** Takes one order event. */
  onEvent(e: OrderEvent): void {
    if (e.type === 'OrderSubmitted') {
      this.orders.set(key(e.strategyId, e.intentId), factsOf(e.intent) ?? unknownFacts());
      return;
    }
    if (e.type === 'OrderRejected') {
      const facts = this.orders.get(key(e.strategyId, e.intentId)) ?? unknownFacts();
      this.push(e.at, e.strategyId, facts, 'rejected', e.reason);
      return;
    }
    if (e.type === 'OrderDenied') {
      const facts = factsOf(e.intent) ?? this.targetFacts(e.strategyId, e.intent) ?? unknownFacts();
      this.push(e.at, e.strategyId, facts, 'denied', e.reason);
    }
  }

  private targetFacts(strategy: string, intent: OrderIntent): OrderFacts | undefined {
    if (intent.kind === 'modify' || intent.kind === 'cancel') {
      const target = this.orders.get(key(strategy, intent.target));
      if (target === undefined) return undefined;
      return intent.kind === 'modify' && intent.quantity !== undefined
        ? { ...target, quantity: intent.quantity }
        : target;
    }
    if (intent.kind === 'squareOff') return { ...unknownFacts(), token: intent.token ?? 0 };
    return undefined;
  }

  private push(
    at: number,
    strategy: string,
    facts: OrderFacts,
    kind: Rejection['kind'],
    reason: string,
  ): void {
    this.list.push({ at, strategy, ...facts, kind, reason });
  }
}

function key(strategy: string, intentId: string): string {
  return `${strategy}\u0000${intentId}`;
}

/** Facts of an intent that carries an instrument (a place or a bracket). */
function factsOf(intent: OrderIntent): OrderFacts | undefined {
  if (intent.kind !== 'place' && intent.kind !== 'bracket') return undefined;
  return {
    token: intent.instrument.token,
    symbol: intent.instrument.symbol,
    side: intent.side,
    quantity: intent.quantity,
  };
}

/** For an order the log never saw placed: no instrument, and no side or size made up. */
function unknownFacts(): OrderFacts {
  return { token: 0 };
}
