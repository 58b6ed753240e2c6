import type { DepthBook } from '../engine/venue-market.ts';
import { hashInts, Prng } from '../prng.ts';
import type { Snapshot } from './market-snapshot.ts';
import type { SimInstrument } from './sim-instrument.ts';

const EMPTY = { orders: 0, price: 0, quantity: 0 } as const;

/**
 * Five-level depth books, one per instrument per market step. A book is drawn from a
 * random stream keyed by (seed, token, step), so it is reproducible and independent of
 * the order tokens are asked for; a set book (the matcher's) holds until the next step.
 */
export class DepthBooks {
  private readonly books = new Map<number, { step: number; book: DepthBook }>();

  constructor(private readonly seed: number) {}

  /** The cached book of `token` at `step`, or undefined when none was built or set. */
  cached(token: number, step: number): DepthBook | undefined {
    const hit = this.books.get(token);
    return hit !== undefined && hit.step === step ? hit.book : undefined;
  }

  /** Stores `book` as the book of `token` for `step`. */
  set(token: number, step: number, book: DepthBook): void {
    this.books.set(token, { step, book });
  }

  /** Draws a fresh book of `token` around the snapshot's ltp; indexes and unknowns get an empty one. */
  build(token: number, inst: SimInstrument | undefined, snap: Snapshot, step: number): DepthBook {
    const empty = (): DepthBook => ({
      bids: Array.from({ length: 5 }, () => ({ ...EMPTY })),
      asks: Array.from({ length: 5 }, () => ({ ...EMPTY })),
    });
    if (inst === undefined || inst.kind === 'index') return empty();
    const { ltp, band } = snap;
    const rng = new Prng(hashInts(this.seed, token, step));
    const lots = inst.kind === 'option' ? 30 : 400;
    const level = (price: number): { orders: number; price: number; quantity: number } => {
      // Nothing rests outside the circuit band (or at a non-positive price).
      if (price <= 0 || (band.upper > 0 && (price > band.upper || price < band.lower))) {
        return { ...EMPTY };
      }
      const n = 1 + rng.int(lots);
      return { orders: 1 + rng.int(Math.min(n, 15)), price, quantity: n * inst.lotSize };
    };
    const book = empty();
    for (let i = 0; i < 5; i++) {
      book.bids[i] = level(ltp - (i + 1) * inst.tick);
      book.asks[i] = level(ltp + (i + 1) * inst.tick);
    }
    return book;
  }
}
