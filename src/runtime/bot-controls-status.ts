import type { OrderEvent, Position } from '../domain/order-events.ts';
import type { OrderType, Product, TransactionType } from '../domain/order-params.ts';
import type { TrackedOrder, TrackedStatus } from '../execution/tracked-order.ts';
import type { HealthStatus } from '../market-data/health.ts';
import type { ControlRecord } from './bot-controls-state.ts';
import type { StrategyStatus } from './strategy-runner.ts';

/** One step of an order's life as the status shows it. */
export interface LifecycleStep {
  type: OrderEvent['type'];
  /** Market time, epoch ms. */
  at: number;
  /** A fill's quantity. */
  quantity?: number;
  /** A fill's price, paise. */
  price?: number;
  /** Why it was rejected. */
  reason?: string;
}

/** One order as the status shows it; prices in paise. */
export interface OrderView {
  tag: string;
  orderId?: string;
  strategyId: string;
  intentId: string;
  token: number;
  symbol: string;
  side: TransactionType;
  quantity: number;
  filledQuantity: number;
  orderType: OrderType;
  product: Product;
  price?: number;
  triggerPrice?: number;
  status: TrackedStatus;
  /** Placed by the framework (square-off, kill switch, shutdown). */
  system: boolean;
  placedAt: number;
  lifecycle: LifecycleStep[];
}

/** One strategy as the status shows it; PnL in paise. */
export interface StrategyView {
  id: string;
  status: StrategyStatus;
  /** Paused by an operator: its entries are dropped until resumed. */
  paused: boolean;
  realised: number;
  unrealised: number;
  openPositions: number;
}

/** Everything a dashboard or a `/status` answer shows, at one instant. Money in paise. */
export interface BotStatus {
  /** Market time, epoch ms. */
  at: number;
  mode: 'live' | 'paper';
  strategies: StrategyView[];
  /** Every position the book holds, closed ones included (their realised PnL). */
  positions: Position[];
  totals: { realised: number; unrealised: number };
  orders: { working: OrderView[]; recent: OrderView[] };
  marketData: {
    status: HealthStatus;
    staleTokens: number[];
    rejectedTokens: number[];
    quoteTokens: number;
  };
  killSwitch: { tripped: boolean; flattenOnKill: boolean };
  /** Why trading is paused (an expired session), if it is. */
  tradingPaused?: string;
  controls: ControlRecord[];
}

/** The view of a tracked order with the steps seen so far. */
export function orderView(o: TrackedOrder, lifecycle: readonly LifecycleStep[]): OrderView {
  const { intent } = o;
  return {
    tag: o.tag,
    ...(o.orderId === undefined ? {} : { orderId: o.orderId }),
    strategyId: o.strategyId,
    intentId: o.intentId,
    token: intent.instrument.token,
    symbol: intent.instrument.symbol,
    side: intent.side,
    quantity: o.quantity,
    filledQuantity: o.filledQuantity,
    orderType: intent.orderType,
    product: intent.product,
    ...(intent.price === undefined ? {} : { price: o.bookPrice ?? intent.price }),
    ...(intent.triggerPrice === undefined ? {} : { triggerPrice: intent.triggerPrice }),
    status: o.status,
    system: o.system === true,
    placedAt: o.placedAt,
    lifecycle: [...lifecycle],
  };
}

/** The step an order event adds to its order's lifecycle. */
export function lifecycleStep(e: OrderEvent): LifecycleStep {
  const step: LifecycleStep = { type: e.type, at: e.at };
  if (e.type === 'OrderFilled' || e.type === 'OrderPartiallyFilled') {
    step.quantity = e.fillQuantity;
    step.price = e.fillPrice;
  }
  if (e.type === 'OrderRejected') step.reason = e.reason;
  return step;
}
