import type { DepthEntry, Quote } from '../api/schemas/quote.ts';

/**
 * True when two quotes of the same mode carry the same wire fields, depth included. The
 * bus uses it to suppress emissions of unchanged quotes.
 *
 * @example
 * ```ts
 * sameQuote({ token: 1, ltp: 100, close: 99 }, { token: 1, ltp: 100, close: 99 }); // true
 * ```
 */
export function sameQuote(a: Quote, b: Quote): boolean {
  if (a === b) return true;
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  // for…in over these plain objects (no inherited keys) reads V8's cached key list:
  // Object.keys allocated two arrays per replayed quote (issue 13).
  let count = 0;
  for (const key in ra) {
    count++;
    const va = ra[key];
    const vb = rb[key];
    if (va === vb) continue;
    if (Array.isArray(va) && Array.isArray(vb)) {
      if (!sameDepth(va as DepthEntry[], vb as DepthEntry[])) return false;
      continue;
    }
    return false;
  }
  for (const _ in rb) count--;
  return count === 0;
}

function sameDepth(a: readonly DepthEntry[], b: readonly DepthEntry[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined) return false;
    if (x.price !== y.price || x.quantity !== y.quantity || x.orders !== y.orders) return false;
  }
  return true;
}
