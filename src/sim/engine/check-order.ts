import { formatRupees, isOnTick, type Paise } from '../../domain/money.ts';
import type { SimInstrument } from '../market/sim-instrument.ts';
import type { OrderParams } from './sim-order.ts';
import type { VenueMarket } from './venue-market.ts';

/**
 * The exchange's business rules for an order, in the order a trader would want to hear
 * about them. Returns the reject reason, or undefined when the order is acceptable.
 * `marketOpen` is whether a session is running at the instant of the request.
 */
export function checkOrder(
  p: OrderParams,
  inst: SimInstrument,
  market: VenueMarket,
  at: number,
  marketOpen: boolean,
): string | undefined {
  const rs = (paise: Paise): string => formatRupees(paise, inst.pricePrecision);
  if (inst.kind === 'index') return `${inst.symbol} is an index and cannot be traded`;
  if (inst.option !== undefined && at >= inst.option.expiresAt) {
    return `${inst.symbol} expired on ${inst.option.expiry}`;
  }
  if (!marketOpen && !p.amo) {
    return 'Market is closed; only after-market orders (amo: true) are accepted outside trading sessions';
  }
  if (p.quantity % inst.lotSize !== 0) {
    return `Quantity ${p.quantity} is not a multiple of the lot size ${inst.lotSize}`;
  }
  if (p.disclosedQty > p.quantity) return 'Disclosed quantity exceeds the order quantity';
  const limitType = p.order === 'LMT' || p.order === 'SL-LMT';
  const stopType = p.order === 'SL-LMT' || p.order === 'SL-MKT';
  if (p.variety === 'cover' && stopType) return 'Cover orders must be MKT or LMT';
  if (limitType && p.price <= 0) return `Price is required for ${p.order} orders`;
  if (stopType && p.triggerPrice <= 0) return `Trigger price is required for ${p.order} orders`;
  if (p.variety === 'cover' && p.bookLossPrice <= 0) {
    return 'bookLossPrice (the stop-loss trigger) is required for cover orders';
  }
  const prices: Array<[string, Paise]> = [];
  if (limitType) prices.push(['Price', p.price]);
  if (stopType) prices.push(['Trigger price', p.triggerPrice]);
  if (p.variety === 'cover') prices.push(['Stop-loss price', p.bookLossPrice]);
  for (const [label, price] of prices) {
    if (!isOnTick(price, inst.tick)) {
      return `${label} ${rs(price)} is not a multiple of the tick size ${rs(inst.tick)}`;
    }
  }
  const band = market.band(inst.token);
  if (band.upper > 0) {
    for (const [label, price] of prices) {
      if (price < band.lower || price > band.upper) {
        return `${label} ${rs(price)} is outside the price band ${rs(band.lower)}-${rs(band.upper)}`;
      }
    }
  }
  const ltp = market.ltp(inst.token);
  const buy = p.transactionType === 'B';
  if (stopType) {
    if (buy && p.triggerPrice <= ltp) {
      return `Trigger price ${rs(p.triggerPrice)} of a stop-loss buy must be above the last traded price ${rs(ltp)}`;
    }
    if (!buy && p.triggerPrice >= ltp) {
      return `Trigger price ${rs(p.triggerPrice)} of a stop-loss sell must be below the last traded price ${rs(ltp)}`;
    }
    if (p.order === 'SL-LMT' && (buy ? p.price < p.triggerPrice : p.price > p.triggerPrice)) {
      return `Limit price ${rs(p.price)} must not be ${buy ? 'below' : 'above'} the trigger price ${rs(p.triggerPrice)}`;
    }
  }
  if (p.variety === 'cover') {
    const ref = p.order === 'LMT' ? p.price : ltp;
    if (buy ? p.bookLossPrice >= ref : p.bookLossPrice <= ref) {
      return `Stop-loss price ${rs(p.bookLossPrice)} must be ${buy ? 'below' : 'above'} ${rs(ref)} for a cover ${buy ? 'buy' : 'sell'}`;
    }
  }
  return undefined;
}
