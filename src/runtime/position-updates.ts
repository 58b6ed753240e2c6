import { BehaviorSubject, defer, type Observable } from 'rxjs';
import type { Position } from '../domain/order-events.ts';

/**
 * The kernel's positions stream (`ctx.positions$`, the dashboard's updates): the latest
 * positions to each subscriber at once, then again after each change. They are built only
 * while someone listens, or when someone starts to: a backtest whose strategies never
 * subscribe built them at every 5 s risk mark for nobody (issue 13: ≈ 11% of a 30-day
 * backtest's allocations). A subscriber sees what it would have seen before, the latest
 * change's positions, because the kernel calls {@link PositionUpdates.changed} at once
 * after every change to the books (a fill's event, the risk mark, the journal's
 * recovery), before a strategy runs: the books as they stand are what the last change
 * would have sent. Code that changes the books must keep to that.
 *
 * @example
 * ```ts
 * const updates = new PositionUpdates(() => engine.positions.positions());
 * updates.changed(); // after a fill or a mark
 * updates.positions$.subscribe((ps) => show(ps));
 * ```
 */
export class PositionUpdates {
  readonly #latest = new BehaviorSubject<Position[]>([]);
  readonly #read: () => Position[];
  /** A change no subscriber has seen built yet. */
  #stale = false;
  /** Each subscription gets the positions as of its start, then every change. */
  readonly positions$: Observable<Position[]> = defer(() => {
    if (this.#stale) {
      this.#stale = false;
      this.#latest.next(this.#read());
    }
    return this.#latest;
  });

  constructor(read: () => Position[]) {
    this.#read = read;
  }

  /** The positions changed (a fill, a mark, the journal's recovery). */
  changed(): void {
    if (this.#latest.observed) this.#latest.next(this.#read());
    else this.#stale = true;
  }
}
