import type { BracketIntent, PlaceIntent } from '../../domain/intents.ts';
import { directionOf } from './bracket-record.ts';

/**
 * Why a bracket cannot open, if it cannot: its id already used (`used`), a limit entry
 * without a price, or a stop or target price on the wrong side of the entry's price.
 *
 * @example
 * ```ts
 * bracketProblem(intent, false); // undefined, or the reason for the OrderDenied
 * ```
 */
export function bracketProblem(intent: BracketIntent, used: boolean): string | undefined {
  if (used) return `intent id "${intent.id}" was already used`;
  const { entry, stopLoss, target } = intent;
  if (entry.orderType === 'LMT' && entry.price === undefined)
    return 'a bracket with a limit entry needs entry.price';
  if (entry.price === undefined) return undefined;
  const dir = directionOf(intent);
  if ('price' in stopLoss && dir * (entry.price - stopLoss.price) <= 0)
    return `stopLoss.price ${stopLoss.price} is on the wrong side of the entry price ${entry.price}`;
  if (target !== undefined && 'price' in target && dir * (target.price - entry.price) <= 0)
    return `target.price ${target.price} is on the wrong side of the entry price ${entry.price}`;
  return undefined;
}

/** The entry order of a bracket: a placement under the bracket's own id. */
export function entryIntent(
  intent: BracketIntent & { strategyId: string },
): PlaceIntent & { strategyId: string } {
  return {
    kind: 'place',
    strategyId: intent.strategyId,
    id: intent.id,
    instrument: intent.instrument,
    side: intent.side,
    quantity: intent.quantity,
    orderType: intent.entry.orderType,
    ...(intent.entry.price === undefined ? {} : { price: intent.entry.price }),
    product: intent.product,
    ...(intent.afterHours === undefined ? {} : { afterHours: intent.afterHours }),
    reason: intent.reason ?? `bracket ${intent.id}: entry`,
  };
}
