import { formatRupees, type Paise } from '../../domain/money.ts';
import type { TrackedOrder } from '../tracked-order.ts';
import { directionOf } from './bracket-record.ts';
import { type LegName, legIntentId, modifyIntentId } from './leg-ids.ts';
import { cancel, type LiveBracket, type SyncDeps } from './live-bracket.ts';

/**
 * Places a leg for `open`, or brings its working order to `open` more and `price`.
 *
 * - A stop whose trigger the last price already passed is not placed: the bracket fails
 *   and exits at market instead (the exchange would refuse it, or fill it late).
 * - A working order is compared with what the broker confirmed (its last accepted
 *   request), not with what was last asked, so a refused modification is sent again.
 * - Past the service's modification limit the leg's order is cancelled, and the next
 *   step places the leg anew under its next id (`<id>#2/sl`): the manager's own cancel.
 */
export async function ensureLeg(
  live: LiveBracket,
  leg: LegName,
  open: number,
  price: Paise,
  order: TrackedOrder | undefined,
  deps: SyncDeps,
): Promise<void> {
  if (live.requested.has(leg)) return;
  const { record } = live;
  const { intent, strategyId } = record;
  const field = leg === 'sl' ? 'triggerPrice' : 'price';
  const what = leg === 'sl' ? 'stop' : 'target';
  const known = record.legs[leg];
  if (order === undefined) {
    const last = deps.lastPrice;
    if (leg === 'sl' && last !== undefined && directionOf(intent) * (last - price) <= 0) {
      deps.fail(`the price ${last} already passed the stop ${price}`);
      return;
    }
    const generation = (known?.generation ?? 0) + 1;
    const id = legIntentId(intent.id, leg, generation);
    record.legs[leg] = { intentId: id, generation, quantity: open, price };
    live.requested.add(leg);
    deps.save();
    await deps.submit({
      kind: 'place',
      strategyId,
      id,
      instrument: intent.instrument,
      side: intent.side === 'B' ? 'S' : 'B',
      quantity: open,
      orderType: leg === 'sl' ? 'SL-MKT' : 'LMT',
      [field]: price,
      product: intent.product,
      reason: `bracket ${intent.id}: ${what}`,
    });
    return;
  }
  if (known === undefined) return;
  if (known.tag !== order.tag) known.tag = order.tag;
  const quantity = order.filledQuantity + open;
  if (order.request.quantity === String(quantity) && order.request[field] === formatRupees(price)) {
    live.modifyFailures[leg] = 0;
    if (known.quantity !== quantity || known.price !== price) {
      known.quantity = quantity;
      known.price = price;
      deps.save();
    }
    return;
  }
  if (order.modifications >= deps.maxModifications) {
    await cancel(live, order, deps);
    return;
  }
  known.quantity = quantity;
  known.price = price;
  deps.save();
  await deps.submit({
    kind: 'modify',
    strategyId,
    id: modifyIntentId(known.intentId),
    target: known.intentId,
    quantity,
    [field]: price,
    reason: `bracket ${intent.id}: ${what} follows`,
  });
}
