import type { PlaceIntent } from '../domain/intents.ts';
import type { Paise } from '../domain/money.ts';
import type { OrderEvent } from '../domain/order-events.ts';
import type { Exchange, Product, TransactionType } from '../domain/order-params.ts';
import {
  addCharges,
  type Charges,
  type CostModel,
  chargesOf,
  NO_CHARGES,
  segmentOf,
} from './cost-model.ts';

/** One fill, as the report lists it. */
export interface FillRecord {
  at: number;
  strategyId: string;
  intentId: string;
  tag: string;
  token: number;
  symbol: string;
  exchange: Exchange;
  product: Product;
  side: TransactionType;
  quantity: number;
  price: Paise;
}

/** One executed order with its charges. */
export interface OrderCost {
  strategyId: string;
  intentId: string;
  tag: string;
  symbol: string;
  segment: string;
  side: TransactionType;
  quantity: number;
  turnover: Paise;
  charges: Charges;
}

interface OrderState {
  intent: PlaceIntent;
  cost: OrderCost;
}

/**
 * Follows order events and keeps the fills and each order's charges current: a fill
 * grows its order's turnover and the order's charges are recomputed, so the brokerage
 * cap applies per order however many partial fills it takes.
 *
 * @example
 * ```ts
 * const ledger = new TradeLedger(costModel());
 * kernel.engine.events$.subscribe((e) => ledger.onEvent(e));
 * ledger.costs.total; // paise so far
 * ```
 */
export class TradeLedger {
  readonly fills: FillRecord[] = [];
  private readonly orders = new Map<string, OrderState>();
  private total: Charges = NO_CHARGES;

  constructor(private readonly model: CostModel) {}

  /** Charges of every order so far. */
  get costs(): Charges {
    return this.total;
  }

  /** Orders that filled at least once, in order of first fill. */
  orderCosts(): OrderCost[] {
    return [...this.orders.values()].map((o) => o.cost).filter((c) => c.quantity > 0);
  }

  /** Takes one order event. */
  onEvent(e: OrderEvent): void {
    const key = `${e.strategyId}\u0000${e.intentId}`;
    if (e.type === 'OrderSubmitted') {
      const { intent } = e;
      this.orders.set(key, {
        intent,
        cost: {
          strategyId: e.strategyId,
          intentId: e.intentId,
          tag: e.tag,
          symbol: intent.instrument.symbol,
          segment: segmentOf(intent.instrument.exchange, intent.instrument.symbol, intent.product),
          side: intent.side,
          quantity: 0,
          turnover: 0,
          charges: NO_CHARGES,
        },
      });
      return;
    }
    if (e.type !== 'OrderFilled' && e.type !== 'OrderPartiallyFilled') return;
    const order = this.orders.get(key);
    if (order === undefined) return;
    const { intent, cost } = order;
    this.fills.push({
      at: e.at,
      strategyId: e.strategyId,
      intentId: e.intentId,
      tag: e.tag,
      token: intent.instrument.token,
      symbol: intent.instrument.symbol,
      exchange: intent.instrument.exchange,
      product: intent.product,
      side: intent.side,
      quantity: e.fillQuantity,
      price: e.fillPrice,
    });
    cost.quantity += e.fillQuantity;
    cost.turnover += e.fillQuantity * e.fillPrice;
    const before = cost.charges;
    cost.charges = chargesOf(
      {
        exchange: intent.instrument.exchange,
        symbol: intent.instrument.symbol,
        product: intent.product,
        side: intent.side,
        turnover: cost.turnover,
      },
      this.model,
    );
    this.total = addCharges(this.total, subtract(cost.charges, before));
  }

  /** Charges of the order behind a fill, in proportion to the fill's share of it. */
  fillCharges(fill: FillRecord): Paise {
    const order = this.orders.get(`${fill.strategyId}\u0000${fill.intentId}`);
    if (order === undefined || order.cost.turnover === 0) return 0;
    return Math.round(
      (order.cost.charges.total * fill.quantity * fill.price) / order.cost.turnover,
    );
  }
}

function subtract(a: Charges, b: Charges): Charges {
  return {
    brokerage: a.brokerage - b.brokerage,
    stt: a.stt - b.stt,
    exchange: a.exchange - b.exchange,
    sebi: a.sebi - b.sebi,
    stamp: a.stamp - b.stamp,
    gst: a.gst - b.gst,
    total: a.total - b.total,
  };
}
