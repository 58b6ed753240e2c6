import type { CancelIntent, ModifyIntent, PlaceIntent, SquareOffIntent } from './intents.ts';

type Without<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/**
 * Builds intents and gives each an id unique within the strategy (`p1`, `m2`, ...)
 * unless one is supplied.
 *
 * @example
 * ```ts
 * const entry = ctx.intents.place({ instrument: sbin, side: 'B', quantity: 1, orderType: 'MKT', product: 'I' });
 * const exit = ctx.intents.cancel(entry.id);
 * ```
 */
export class IntentFactory {
  private seq = 0;

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

  /** Square off one instrument (`token`) or everything. */
  squareOff(token?: string, reason?: string): SquareOffIntent {
    return {
      kind: 'squareOff',
      id: this.next('x'),
      ...(token === undefined ? {} : { token }),
      ...(reason === undefined ? {} : { reason }),
    };
  }
}
