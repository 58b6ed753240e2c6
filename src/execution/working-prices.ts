import type { Paise } from '../domain/money.ts';
import { parseRupees } from '../domain/money.ts';
import type { TrackedOrder } from './tracked-order.ts';

/** The wire's rupee text as paise; the wire writes "0" (or nothing) for "no price". */
export function wirePrice(text: string | undefined): Paise | undefined {
  if (text === undefined || text === '' || text === '0') return undefined;
  const paise = parseRupees(text);
  return paise === 0 ? undefined : paise;
}

/**
 * The prices an order works at now, for people (`tiqs-runner orders`, the stop's report),
 * by the rule `ctx.openOrders` follows: a limit price is the book's when the tracker has seen
 * one, else the last request sent (modifications update the request, not the intent), else
 * the intent's; a stop's trigger is the last request's, else the intent's; a cover order's
 * stop leg (`…/stop`) shows its stop-loss price as the trigger. Market orders have no price.
 *
 * @example
 * ```ts
 * const { price, trigger } = workingPrices(order); // paise, or undefined
 * ```
 */
export function workingPrices(o: TrackedOrder): { price?: Paise; trigger?: Paise } {
  const type = o.intent.orderType;
  const limit = type === 'LMT' || type === 'SL-LMT';
  const stop = type === 'SL-LMT' || type === 'SL-MKT';
  const book = o.bookPrice === 0 ? undefined : o.bookPrice;
  const price = limit ? (book ?? wirePrice(o.request?.price) ?? o.intent.price) : undefined;
  const trigger = o.intentId.endsWith('/stop')
    ? o.intent.bookLossPrice
    : stop
      ? (wirePrice(o.request?.triggerPrice) ?? o.intent.triggerPrice)
      : undefined;
  return {
    ...(price === undefined ? {} : { price }),
    ...(trigger === undefined ? {} : { trigger }),
  };
}
