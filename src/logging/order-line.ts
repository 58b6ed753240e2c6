import { rupees, type SymbolOf } from './log-values.ts';

/** An order event as the kernel logs it (`event`), fields read loosely: a log line is data. */
interface LoggedEvent {
  type?: string;
  intentId?: string;
  orderId?: string;
  reason?: string;
  fillQuantity?: number;
  fillPrice?: number;
  filledQuantity?: number;
  averagePrice?: number;
  quantity?: number;
  price?: number;
}

/** The order an event belongs to, as the kernel adds it (`order`). */
interface LoggedOrder {
  side?: string;
  quantity?: number;
  symbol?: string;
  token?: number;
  orderType?: string;
  price?: number;
  triggerPrice?: number;
  reason?: string;
}

/** Order events a person need not see unless debugging: the steps before an outcome. */
const ROUTINE = new Set(['OrderSubmitted', 'OrderAccepted', 'OrderOpened']);

/** Whether a record is an order event (`msg` is its type, `event` its fields). */
export function isOrderEvent(record: Record<string, unknown>): boolean {
  const event = record.event;
  return (
    typeof event === 'object' &&
    event !== null &&
    (event as LoggedEvent).type === record.msg &&
    typeof record.msg === 'string' &&
    /^(Order|Intent)[A-Z]/.test(record.msg)
  );
}

/** Whether an order event is a routine step (shown at debug only). */
export function isRoutineOrderEvent(record: Record<string, unknown>): boolean {
  return ROUTINE.has(String(record.msg));
}

/** Who placed it, when not the strategy's own intent: square-off, kill switch, bracket leg. */
function origin(intentId: string | undefined, reason: string | undefined): string | undefined {
  if (intentId === undefined) return undefined;
  if (intentId.startsWith('auto-eod-')) return 'square-off';
  if (intentId.startsWith('kill-')) return 'kill switch';
  if (intentId.startsWith('shutdown-')) return 'shutdown';
  const leg = /^(.+?)(?:#\d+)?\/(sl|tp|exit|stop)(~m)?$/.exec(intentId);
  if (leg !== null) {
    const part = { sl: 'stop', tp: 'target', exit: 'exit', stop: 'stop' }[leg[2] as string];
    return `bracket ${leg[1]} ${part}${leg[3] === undefined ? '' : ' change'}`;
  }
  return reason !== undefined && /square.?off/i.test(reason) ? 'square-off' : undefined;
}

/**
 * The words of an order event: `BUY 10 SBIN-EQ @ ₹794.15 filled (order 9000000035)`.
 * Without the order's summary (an order recovered from the journal) it names the intent.
 *
 * @example
 * ```ts
 * orderLine({ msg: 'OrderFilled', event: { type: 'OrderFilled', fillQuantity: 10, fillPrice: 79415, orderId: '9' },
 *   order: { side: 'B', quantity: 10, symbol: 'SBIN-EQ', token: 3045 } }, () => undefined);
 * // 'BUY 10 SBIN-EQ @ ₹794.15 filled (order 9)'
 * ```
 */
export function orderLine(record: Record<string, unknown>, symbolOf: SymbolOf): string {
  const e = record.event as LoggedEvent;
  const o = (typeof record.order === 'object' ? record.order : undefined) as
    | LoggedOrder
    | undefined;
  const side = o?.side === 'B' ? 'BUY' : o?.side === 'S' ? 'SELL' : undefined;
  const symbol =
    o?.symbol ?? (o?.token === undefined ? undefined : (symbolOf(o.token) ?? String(o.token)));
  const what = (quantity: number | undefined): string =>
    side === undefined || symbol === undefined
      ? `order ${e.intentId ?? '?'}`
      : `${side} ${quantity ?? o?.quantity ?? '?'} ${symbol}`;
  const limit = (): string => {
    if (o === undefined) return '';
    const trigger = o.triggerPrice === undefined ? '' : ` trigger ${rupees(o.triggerPrice)}`;
    const price = o.price === undefined ? '' : ` @ ${rupees(o.price)}`;
    return ` ${o.orderType ?? ''}${price}${trigger}`.trimEnd();
  };
  const from = origin(e.intentId, o?.reason);
  const tail = [e.orderId === undefined ? undefined : `order ${e.orderId}`, from].filter(
    (x) => x !== undefined,
  );
  const suffix = tail.length === 0 ? '' : ` (${tail.join(', ')})`;
  switch (e.type) {
    case 'OrderFilled':
    case 'OrderPartiallyFilled': {
      const partial = e.type === 'OrderPartiallyFilled';
      const total = e.quantity ?? o?.quantity;
      const progress =
        e.filledQuantity !== undefined && total !== undefined && e.filledQuantity !== e.fillQuantity
          ? `, ${e.filledQuantity}/${total} at avg ${rupees(e.averagePrice ?? 0)}`
          : partial && total !== undefined
            ? `, ${e.filledQuantity ?? e.fillQuantity}/${total}`
            : '';
      const verb = partial ? 'partially filled' : 'filled';
      return `${what(e.fillQuantity)} @ ${rupees(e.fillPrice ?? 0)} ${verb}${progress}${suffix}`;
    }
    case 'OrderRejected':
      return `${what(undefined)}${limit()} rejected: ${e.reason ?? '?'}${suffix}`;
    case 'OrderDenied':
      return `${what(undefined)}${limit()} denied: ${e.reason ?? '?'}${suffix}`;
    case 'IntentDeferred':
      return `${what(undefined)}${limit()} deferred: ${e.reason ?? '?'}${suffix}`;
    case 'OrderCancelled':
      return `${what(undefined)}${limit()} cancelled, ${e.filledQuantity ?? 0} filled${suffix}`;
    case 'OrderModified': {
      const price = e.price === undefined ? '' : ` @ ${rupees(e.price)}`;
      return `${what(undefined)} modified to ${e.quantity ?? '?'}${price}${suffix}`;
    }
    case 'OrderSubmitted':
      return `${what(undefined)}${limit()} placed${suffix}`;
    case 'OrderAccepted':
      return `${what(undefined)} accepted${suffix}`;
    default:
      return `${what(undefined)} ${String(e.type)
        .replace(/^Order/, '')
        .toLowerCase()}${suffix}`;
  }
}
