import type { SimInstrument } from '../market/sim-instrument.ts';
import type { OrderParams, SimOrder } from './sim-order.ts';

/** A new order, pending, with nothing filled; `parentId` for a cover order's stop leg. */
export function newSimOrder(
  id: string,
  instrument: SimInstrument,
  params: OrderParams,
  at: number,
  parentId: string | undefined,
): SimOrder {
  return {
    id,
    exchangeOrderId: '',
    instrument,
    params: { ...params },
    status: 'PENDING',
    filled: 0,
    fillValue: 0,
    rejectReason: '',
    cancelQuantity: 0,
    placedAt: at,
    updatedAt: at,
    exchangeUpdatedAt: undefined,
    modifications: 0,
    triggered: false,
    released: false,
    parentId,
    childId: undefined,
    history: [],
    fills: [],
  };
}
