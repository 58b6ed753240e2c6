import type { Paise } from '../../domain/money.ts';
import type {
  Exchange,
  OrderStatus,
  OrderType,
  Product,
  ReportType,
  TransactionType,
  Validity,
  Variety,
} from '../../domain/order-params.ts';
import type { SimInstrument } from '../market/sim-instrument.ts';

/** An order as the engine takes it: the wire's fields, money in paise, numbers parsed. */
export interface OrderParams {
  variety: Variety;
  exchange: Exchange;
  token: number;
  transactionType: TransactionType;
  order: OrderType;
  product: Product;
  validity: Validity;
  quantity: number;
  disclosedQty: number;
  /** Limit price; 0 for market orders. */
  price: Paise;
  /** Stop trigger; 0 when none. */
  triggerPrice: Paise;
  /** Stop-leg trigger of a cover order; 0 when none. */
  bookLossPrice: Paise;
  /** 0 when none. */
  bookProfitPrice: Paise;
  tags: string;
  amo: boolean;
}

/** The order's state as one history record shows it. */
export interface SimOrderEvent {
  reportType: ReportType;
  /** Epoch ms. */
  at: number;
  status: OrderStatus;
  params: OrderParams;
  filled: number;
  /** Average fill price so far, paise; undefined before the first fill. */
  averagePrice: Paise | undefined;
  rejectReason: string;
  cancelQuantity: number;
  /** Empty until the exchange accepted the order. */
  exchangeOrderId: string;
}

/** One execution of an order. */
export interface OrderFill {
  fillId: string;
  orderId: string;
  /** Epoch ms. */
  at: number;
  price: Paise;
  quantity: number;
  /** Cumulative filled quantity after this fill. */
  filled: number;
  /** Average price after this fill, paise. */
  averagePrice: Paise;
}

/** An order in the engine: current state, its history (oldest first) and its fills. */
export interface SimOrder {
  id: string;
  exchangeOrderId: string;
  instrument: SimInstrument;
  params: OrderParams;
  status: OrderStatus;
  filled: number;
  /** Sum of price × quantity over fills, paise. */
  fillValue: number;
  rejectReason: string;
  cancelQuantity: number;
  /** Epoch ms. */
  placedAt: number;
  /** Epoch ms of the latest change. */
  updatedAt: number;
  /** Epoch ms of the latest exchange event; undefined before the exchange saw it. */
  exchangeUpdatedAt: number | undefined;
  modifications: number;
  /** A stop order whose trigger was reached. */
  triggered: boolean;
  /** Sent to the exchange (AMO orders wait for the next open). */
  released: boolean;
  /** For a cover order's stop leg: the main leg's id. */
  parentId: string | undefined;
  /** For a cover order's main leg: its stop leg's id, once created. */
  childId: string | undefined;
  history: SimOrderEvent[];
  fills: OrderFill[];
}

/** Average price of the order's fills so far, paise, rounded to the paisa. */
export function averagePriceOf(order: Pick<SimOrder, 'filled' | 'fillValue'>): Paise | undefined {
  return order.filled > 0 ? Math.round(order.fillValue / order.filled) : undefined;
}
