import type {
  BracketIntent,
  CancelIntent,
  ModifyIntent,
  PlaceIntent,
  SquareOffIntent,
} from '../domain/intents.ts';

type Without<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

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

  constructor(start = 0) {
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
}
