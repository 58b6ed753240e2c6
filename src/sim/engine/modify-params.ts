import type { ModifyOrderRequest } from '../../api/schemas/order-requests.ts';
import { formatRupees } from '../../domain/money.ts';
import type { Variety } from '../../domain/order-params.ts';
import type { SimInstrument } from '../market/sim-instrument.ts';
import type { OrderParams, SimOrder } from './sim-order.ts';
import { toOrderParams } from './to-order-params.ts';

/**
 * Engine params of a modification, as the service reads it: the order's own variety
 * wins over the path's (the official client, pytiqs, always modifies at
 * `/order/regular/<id>`, cover orders included), and an empty or missing
 * `bookLossPrice`/`bookProfitPrice` keeps the order's value. `order` is undefined for an
 * unknown id; the engine then answers 404.
 */
export function toModifyParams(
  order: SimOrder | undefined,
  pathVariety: Variety,
  body: ModifyOrderRequest,
  instrument: (token: number) => SimInstrument | undefined,
): { params: OrderParams; reason: string | undefined } {
  if (order === undefined) return toOrderParams(pathVariety, body, instrument);
  const kept = order.params;
  const precision = order.instrument.pricePrecision;
  const keep = (text: string | undefined, paise: number): string | undefined =>
    (text === undefined || text === '') && paise > 0 ? formatRupees(paise, precision) : text;
  const filled: ModifyOrderRequest = {
    ...body,
    bookLossPrice: keep(body.bookLossPrice, kept.bookLossPrice),
    bookProfitPrice: keep(body.bookProfitPrice, kept.bookProfitPrice),
  };
  return toOrderParams(kept.variety, filled, instrument);
}
