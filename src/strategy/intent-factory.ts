import type {
  BracketIntent,
  CancelIntent,
  Instrument,
  ModifyIntent,
  PlaceIntent,
  SquareOffIntent,
} from '../domain/intents.ts';

import type { Paise } from '../domain/money.ts';
import type { Product } from '../domain/order-params.ts';
import { NO_STATE, type StrategyState, strategyState } from './strategy-state.ts';
import { planTarget } from './target-position.ts';

type Without<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** What {@link IntentFactory.target} is asked for; prices in paise. */
export interface TargetRequest {
  instrument: Instrument;
  /** Signed net position wanted: positive long, negative short, 0 flat. */
  quantity: number;
  product: Product;
  /** Of the orders it places; default `MKT`. */
  orderType?: 'MKT' | 'LMT';
  /** Limit price, with `LMT`. */
  price?: Paise;
  reason?: string;
}

/** An automatic id (`p12`, `x3`), or one derived from it (`x3:3045`, `p12/stop`, `p12#duplicate`). */
const AUTO_ID = /^[pmcx](\d+)(?:$|[:/#])/;

/**
 * The highest number among automatic intent ids, 0 when none: a restarted strategy's
 * factory counts on from there, so its fresh ids never collide with those its journal
 * remembers.
 *
 * @example
 * ```ts
 * lastAutoIdNumber(['p1', 'p7/stop', 'x9:3045', 'entry']); // 9
 * ```
 */
export function lastAutoIdNumber(ids: Iterable<string>): number {
  let last = 0;
  for (const id of ids) {
    const n = Number(AUTO_ID.exec(id)?.[1] ?? 0);
    if (Number.isSafeInteger(n) && n > last) last = n;
  }
  return last;
}

/**
 * Builds intents and gives each an id unique within the strategy (`p1`, `m2`, ...)
 * unless one is supplied. Numbering starts after `start` (the kernel passes the highest
 * automatic id the journal holds for the strategy), so ids stay unique across restarts.
 *
 * @example
 * ```ts
 * const entry = ctx.intents.place({ instrument: sbin, side: 'B', quantity: 1, orderType: 'MKT', product: 'I' });
 * const exit = ctx.intents.cancel(entry.id);
 * ```
 */
export class IntentFactory {
  private seq: number;

  /** `state` answers {@link target}; without it every position reads flat. */
  constructor(
    start = 0,
    private readonly state: StrategyState = strategyState('', NO_STATE),
  ) {
    this.seq = start;
  }

  private next(prefix: string): string {
    this.seq += 1;
    return `${prefix}${this.seq}`;
  }

  /** A place intent. */
  place(fields: Without<Omit<PlaceIntent, 'kind'>, 'id'>): PlaceIntent {
    return { ...fields, kind: 'place', id: fields.id ?? this.next('p') };
  }

  /** A modify intent for the order of place intent `target`. */
  modify(
    target: string,
    changes: Omit<ModifyIntent, 'kind' | 'id' | 'target'> & { id?: string },
  ): ModifyIntent {
    return { ...changes, kind: 'modify', id: changes.id ?? this.next('m'), target };
  }

  /** A cancel intent for the order of place intent `target`. */
  cancel(target: string, reason?: string): CancelIntent {
    return {
      kind: 'cancel',
      id: this.next('c'),
      target,
      ...(reason === undefined ? {} : { reason }),
    };
  }

  /**
   * A bracket: an entry whose stop (`SL-MKT`) and optional target (`LMT`) the framework
   * places once it fills, as a one-cancels-other pair, and trails with `trailing`. Its id
   * (`p<n>` unless given) is the entry's; the legs are `<id>/sl` and `<id>/tp`.
   *
   * @example
   * ```ts
   * ctx.intents.bracket({ instrument: sbin, side: 'B', quantity: 10, product: 'I',
   *   entry: { orderType: 'MKT' }, stopLoss: { points: 400 }, trailing: { points: 400 } });
   * ```
   */
  bracket(fields: Without<Omit<BracketIntent, 'kind'>, 'id'>): BracketIntent {
    return { ...fields, kind: 'bracket', id: fields.id ?? this.next('p') };
  }

  /** Square off one instrument (`token`) or everything. */
  squareOff(token?: number, reason?: string): SquareOffIntent {
    return {
      kind: 'squareOff',
      id: this.next('x'),
      ...(token === undefined ? {} : { token }),
      ...(reason === undefined ? {} : { reason }),
    };
  }

  /**
   * The intents that take this strategy's net position in `instrument` to the signed
   * `quantity` (+ long, − short, 0 flat), given its position and working orders now (see
   * {@link planTarget}): cancels of orders working away from it, then one order (two
   * when the position reverses: an exit to flat, then the entry). Already there, or on
   * the way: none. Emit them with `mergeMap`.
   *
   * @example
   * ```ts
   * signal$.pipe(mergeMap((long) => ctx.intents.target({ instrument: sbin, quantity: long ? 10 : 0, product: 'I' })));
   * ```
   */
  target(request: TargetRequest): Array<PlaceIntent | CancelIntent> {
    const { instrument, quantity, product, reason } = request;
    const plan = planTarget(
      this.state.position(instrument.token).netQuantity,
      this.state.openOrders(instrument.token),
      quantity,
    );
    const why = reason ?? `target ${quantity}`;
    return [
      ...plan.cancel.map((id) => this.cancel(id, why)),
      ...plan.place.map(({ side, quantity: q }) =>
        this.place({
          instrument,
          side,
          quantity: q,
          product,
          orderType: request.orderType ?? 'MKT',
          ...(request.price === undefined ? {} : { price: request.price }),
          reason: why,
        }),
      ),
    ];
  }
}
