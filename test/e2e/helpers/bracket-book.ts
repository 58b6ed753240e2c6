import type { SimAdmin, SimOrderView } from './sim-admin.ts';

const TOKEN = 3045;

/** A working order at the simulator (placed, not final). */
export const working = (o: SimOrderView | undefined): boolean =>
  o !== undefined && (o.status === 'OPEN' || o.status === 'PENDING');

/** The orders of a long bracket on SBIN (3045) at the exchange, by role: buy entry, sell legs. */
export function roles(orders: readonly SimOrderView[]) {
  const mine = orders.filter((o) => o.token === TOKEN);
  return {
    entries: mine.filter((o) => o.transactionType === 'B'),
    stops: mine.filter((o) => o.transactionType === 'S' && o.order === 'SL-MKT'),
    targets: mine.filter((o) => o.transactionType === 'S' && o.order !== 'SL-MKT'),
  };
}

/** One look at the book: is a long position at the exchange covered by a working stop? */
export interface Sample {
  position: number;
  stopWorking: number;
}

/**
 * Reads the book until `done` holds, at most `timeoutMs` (each read bounded by SimAdmin),
 * recording every read into `samples`. Rejects with the last book on timeout.
 */
export async function readBookUntil(
  admin: SimAdmin,
  done: (orders: readonly SimOrderView[]) => boolean,
  timeoutMs: number,
  what: string,
  samples: Sample[] = [],
): Promise<SimOrderView[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const book = await admin.orders();
    const { stops } = roles(book.orders);
    samples.push({
      position: book.positions[String(TOKEN)] ?? 0,
      stopWorking: stops.filter(working).reduce((n, o) => n + o.quantity - o.filled, 0),
    });
    if (done(book.orders)) return book.orders;
    if (Date.now() > until)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(book.orders)}`);
    // Paced on the simulator's own answer time: one read at a time, no fixed sleep.
  }
}
