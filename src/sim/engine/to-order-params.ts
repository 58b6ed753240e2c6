import type { ModifyOrderRequest, PlaceOrderRequest } from '../../api/schemas/order-requests.ts';
import { formatRupees, MoneyFormatError, type Paise, parseRupees } from '../../domain/money.ts';
import type { Variety } from '../../domain/order-params.ts';
import type { SimInstrument } from '../market/sim-instrument.ts';
import { badRequest, notFound } from '../sim-error.ts';
import type { OrderParams } from './sim-order.ts';

/**
 * Wire order body to engine params. Throws a 400/404 `SimError` for a body that cannot
 * be an order at all; returns `reason` for one the exchange would take and reject (a
 * price finer than the tick). Shared by the simulator and the paper broker.
 */
export function toOrderParams(
  variety: Variety,
  body: PlaceOrderRequest | ModifyOrderRequest,
  instrument: (token: number) => SimInstrument | undefined,
): { params: OrderParams; reason: string | undefined } {
  const token = Number(body.token);
  const inst = instrument(token);
  if (inst === undefined) throw notFound(`Unknown instrument token ${body.token}`);
  if (inst.kind === 'index')
    throw badRequest(`Token ${body.token} is an index and cannot be traded`);
  if (inst.exchange !== body.exchange) {
    throw badRequest(`Token ${body.token} trades on ${inst.exchange}, not ${body.exchange}`);
  }
  if (variety === 'cover' && (body.bookLossPrice === undefined || body.bookLossPrice === '')) {
    throw badRequest('bookLossPrice is required for cover orders');
  }
  let reason: string | undefined;
  const price = (field: string, text: string | undefined): Paise => {
    if (text === undefined || text === '') return 0;
    const frac = /\.(\d+)$/.exec(text)?.[1] ?? '';
    if (/[1-9]/.test(frac.slice(inst.pricePrecision))) {
      reason ??= `${field} ${text} is not a multiple of the tick size ${formatRupees(inst.tick, inst.pricePrecision)}`;
    }
    try {
      return parseRupees(text);
    } catch (err) {
      if (err instanceof MoneyFormatError) throw badRequest(`${field}: ${err.message}`);
      throw err;
    }
  };
  const count = (field: string, text: string): number => {
    const n = Number(text);
    if (!Number.isSafeInteger(n) || n > 1e9) throw badRequest(`${field} ${text} is too large`);
    return n;
  };
  const params: OrderParams = {
    variety,
    exchange: body.exchange,
    token,
    transactionType: body.transactionType,
    order: body.order,
    product: body.product,
    validity: body.validity,
    quantity: count('quantity', body.quantity),
    disclosedQty: count('disclosedQty', body.disclosedQty),
    price: body.order === 'MKT' || body.order === 'SL-MKT' ? 0 : price('Price', body.price),
    triggerPrice:
      body.order === 'SL-LMT' || body.order === 'SL-MKT'
        ? price('Trigger price', body.triggerPrice)
        : 0,
    bookLossPrice: variety === 'cover' ? price('Stop-loss price', body.bookLossPrice) : 0,
    bookProfitPrice:
      'bookProfitPrice' in body ? price('Book-profit price', body.bookProfitPrice) : 0,
    tags: body.tags,
    amo: body.amo,
  };
  return { params, reason };
}
