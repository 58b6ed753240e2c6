import type { Logger } from 'pino';
import type { OrderIntent } from '../domain/intents.ts';
import type { OrderEvent } from '../domain/order-events.ts';

/**
 * What an order is, in a log line: enough for a person to read a fill (`BUY 10 SBIN-EQ`)
 * without the intent it came from. Prices in paise, like every field of an event.
 */
export interface OrderLogSummary {
  side: 'B' | 'S';
  quantity: number;
  symbol: string;
  token: number;
  orderType?: string;
  price?: number;
  triggerPrice?: number;
  /** The intent's reason (a square-off's, a kill switch's, a strategy's own). */
  reason?: string;
}

/** Events after which an order's summary is not needed any more. */
const FINAL = new Set<OrderEvent['type']>(['OrderFilled', 'OrderCancelled', 'OrderRejected']);

/**
 * Logs order events, one record each, with the order they belong to (`order`: side,
 * quantity, symbol, token, type, prices): the events themselves name only the intent, and
 * a fill line that says what was bought reads without the lines before it. The summary is
 * learnt from the event that carries the intent (`OrderSubmitted`, `OrderDenied`,
 * `IntentDeferred`), updated by `OrderModified` (quantity, price) and forgotten at the order's end, so the map holds working orders only.
 * Rejections and denials are warnings; every other event stays at info, as machines reading
 * the JSON expect; pretty output shows the routine steps (submitted, accepted, opened) only
 * at debug.
 *
 * @example
 * ```ts
 * const orderLog = new OrderEventLog(logger);
 * engine.events$.subscribe((e) => orderLog.log(e));
 * ```
 */
export class OrderEventLog {
  private readonly orders = new Map<string, OrderLogSummary>();

  constructor(private readonly logger: Logger) {}

  /** Logs `e` (its intent left out) with its order's summary. */
  log(e: OrderEvent): void {
    const key = `${e.strategyId}\u0000${e.intentId}`;
    const { intent, ...rest } = e as OrderEvent & { intent?: OrderIntent };
    const learnt = intent === undefined ? undefined : orderSummaryOf(intent);
    if (learnt !== undefined && e.type !== 'OrderDenied') this.orders.set(key, learnt);
    // A modify changes the working order: later lines (cancelled, filled) say what it is now.
    if (e.type === 'OrderModified') this.modified(key, e.quantity, e.price);
    const order = learnt ?? this.orders.get(key);
    if (FINAL.has(e.type)) this.orders.delete(key);
    const level = e.type === 'OrderRejected' || e.type === 'OrderDenied' ? 'warn' : 'info';
    if (!this.logger.isLevelEnabled(level)) return;
    const log = this.logger.child({ component: 'execution', strategy: e.strategyId });
    const fields = order === undefined ? { event: rest } : { event: rest, order };
    log[level](fields, e.type);
  }

  private modified(key: string, quantity: number, price: number | undefined): void {
    const known = this.orders.get(key);
    if (known === undefined) return;
    this.orders.set(key, { ...known, quantity, ...(price === undefined ? {} : { price }) });
  }
}

/** The summary of a placing intent; undefined for a cancel, a modify or a square-off. */
export function orderSummaryOf(intent: OrderIntent): OrderLogSummary | undefined {
  if (intent.kind !== 'place' && intent.kind !== 'bracket') return undefined;
  const base: OrderLogSummary = {
    side: intent.side,
    quantity: intent.quantity,
    symbol: intent.instrument.symbol,
    token: intent.instrument.token,
  };
  const type = intent.kind === 'place' ? intent.orderType : intent.entry.orderType;
  const price = intent.kind === 'place' ? intent.price : intent.entry.price;
  return {
    ...base,
    orderType: type,
    ...(price === undefined ? {} : { price }),
    ...(intent.kind === 'place' && intent.triggerPrice !== undefined
      ? { triggerPrice: intent.triggerPrice }
      : {}),
    ...(intent.reason === undefined ? {} : { reason: intent.reason }),
  };
}
