import type { QuoteMode } from '../domain/order-params.ts';

/** One request: a mode and the tokens polled in it. */
export interface PackedBatch {
  readonly mode: QuoteMode;
  readonly tokens: readonly number[];
}

/**
 * Rough size of one quote of each mode, in fields: what letting a token ride in a
 * richer batch costs in payload. Full quotes carry ten depth levels.
 */
const WEIGHT: Readonly<Record<QuoteMode, number>> = { ltp: 3, ohlcv: 9, full: 40 };

/**
 * Packs tokens, each wanted in one mode, into the fewest requests: ⌈unique / batchSize⌉.
 * A token may ride in a batch of a richer mode (full ⊇ ohlcv ⊇ ltp), never a poorer one;
 * among the packings with the fewest requests it picks the one that upgrades the least
 * payload (an ltp token rather rides in an ohlcv batch than in a full one). When the
 * modes fill their batches well enough on their own, nothing is upgraded.
 *
 * Tokens keep their order within a mode, so batches are stable across cycles.
 *
 * @example
 * ```ts
 * // 30 full, 70 ohlcv, 20 ltp at 50 a batch: 3 requests, not 1 + 2 + 1.
 * packBatches({ full: f30, ohlcv: o70, ltp: l20 }, 50).length; // 3
 * ```
 */
export function packBatches(
  byMode: { readonly [M in QuoteMode]?: readonly number[] | undefined },
  batchSize: number,
): PackedBatch[] {
  if (!(Number.isInteger(batchSize) && batchSize > 0)) {
    throw new RangeError(`bad batch size ${batchSize}`);
  }
  const full = byMode.full ?? [];
  const ohlcv = byMode.ohlcv ?? [];
  const ltp = byMode.ltp ?? [];
  const B = batchSize;
  const [f, o, l] = [full.length, ohlcv.length, ltp.length];
  const total = f + o + l;
  if (total === 0) return [];
  const requests = Math.ceil(total / B);
  // Fewer full batches never costs more (whatever would ride in a spare full batch rides
  // more cheaply in an ohlcv one), so full gets exactly what its own tokens need; the
  // split of the rest between ohlcv and ltp batches is searched.
  const nf = Math.ceil(f / B);
  let best: { no: number; cost: number } | undefined;
  for (let no = Math.max(0, Math.ceil((f + o) / B) - nf); nf + no <= requests; no++) {
    const cost = costOf(f, o, l, B, nf, no, requests - nf - no);
    if (best === undefined || cost < best.cost) best = { no, cost };
  }
  const no = best?.no ?? 0;
  const nl = requests - nf - no;
  // Overflows ride upwards: ohlcv's into full; ltp's into ohlcv's spare room, then full's.
  const ohlcvUp = Math.max(0, o - no * B);
  const ltpUp = Math.max(0, l - nl * B);
  const ohlcvSpare = no * B - (o - ohlcvUp);
  const ltpToOhlcv = Math.min(ltpUp, ohlcvSpare);
  const ltpOwn = ltp.slice(0, l - ltpUp);
  const ltpRiding = ltp.slice(l - ltpUp);
  const fullList = [...full, ...ohlcv.slice(o - ohlcvUp), ...ltpRiding.slice(ltpToOhlcv)];
  const ohlcvList = [...ohlcv.slice(0, o - ohlcvUp), ...ltpRiding.slice(0, ltpToOhlcv)];
  return [
    ...chunks(fullList, B).map((tokens) => ({ mode: 'full' as const, tokens })),
    ...chunks(ohlcvList, B).map((tokens) => ({ mode: 'ohlcv' as const, tokens })),
    ...chunks(ltpOwn, B).map((tokens) => ({ mode: 'ltp' as const, tokens })),
  ];
}

/** Payload upgraded by a split into nf full, no ohlcv and nl ltp batches; ∞ if it does not fit. */
function costOf(
  f: number,
  o: number,
  l: number,
  B: number,
  nf: number,
  no: number,
  nl: number,
): number {
  if (f > nf * B || f + o > (nf + no) * B || f + o + l > (nf + no + nl) * B) {
    return Number.POSITIVE_INFINITY;
  }
  const ohlcvUp = Math.max(0, o - no * B);
  const ltpUp = Math.max(0, l - nl * B);
  const ohlcvSpare = no * B - (o - ohlcvUp);
  const toOhlcv = Math.min(ltpUp, ohlcvSpare);
  return (
    ohlcvUp * (WEIGHT.full - WEIGHT.ohlcv) +
    toOhlcv * (WEIGHT.ohlcv - WEIGHT.ltp) +
    (ltpUp - toOhlcv) * (WEIGHT.full - WEIGHT.ltp)
  );
}

function chunks(items: readonly number[], size: number): number[][] {
  const out: number[][] = [];
  // Sorted within a batch: the same tokens make the same request, whatever rode where.
  for (let i = 0; i < items.length; i += size) {
    out.push(items.slice(i, i + size).sort((a, b) => a - b));
  }
  return out;
}
