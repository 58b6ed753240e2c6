import type { ModifyOrderRequest, PlaceOrderRequest } from '../api/schemas/order-requests.ts';
import type { ModifyIntent, PlaceIntent } from '../domain/intents.ts';
import { formatRupees } from '../domain/money.ts';

/** The place-order body of an intent; prices to rupee text at the wire, here only. */
export function toPlaceRequest(intent: PlaceIntent, tag: string, amo: boolean): PlaceOrderRequest {
  const limit = intent.orderType === 'LMT' || intent.orderType === 'SL-LMT';
  const stop = intent.orderType === 'SL-LMT' || intent.orderType === 'SL-MKT';
  const request: PlaceOrderRequest = {
    exchange: intent.instrument.exchange,
    // The wire's text form of the token, made here only.
    token: String(intent.instrument.token),
    symbol: intent.instrument.symbol,
    quantity: String(intent.quantity),
    disclosedQty: String(intent.disclosedQty ?? 0),
    product: intent.product,
    transactionType: intent.side,
    order: intent.orderType,
    // Noren-based services reject an empty price; "0" is the market-order form.
    price: limit && intent.price !== undefined ? formatRupees(intent.price) : '0',
    triggerPrice:
      stop && intent.triggerPrice !== undefined ? formatRupees(intent.triggerPrice) : '0',
    validity: intent.validity ?? 'DAY',
    tags: tag,
    amo,
  };
  if (intent.bookLossPrice !== undefined)
    request.bookLossPrice = formatRupees(intent.bookLossPrice);
  return request;
}

/** The modify body: the order as placed, with the intent's changes applied. */
export function toModifyRequest(
  placed: PlaceOrderRequest,
  change: ModifyIntent,
): ModifyOrderRequest {
  const { symbol: _symbol, ...rest } = placed;
  const request: ModifyOrderRequest = { ...rest };
  if (change.quantity !== undefined) request.quantity = String(change.quantity);
  if (change.orderType !== undefined) request.order = change.orderType;
  if (change.price !== undefined) request.price = formatRupees(change.price);
  if (change.triggerPrice !== undefined) request.triggerPrice = formatRupees(change.triggerPrice);
  return request;
}
