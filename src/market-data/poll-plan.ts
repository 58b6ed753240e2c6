import type { QuoteMode } from '../domain/order-params.ts';
import { packBatches } from './pack-batches.ts';
import { maxMode, modeCovers } from './project-quote.ts';

const NONE: ReadonlySet<number> = new Set();

/** One subscriber's wish for a token: a mode, refreshed every `intervalMs`. */
export interface QuoteDemand {
  readonly intervalMs: number;
  readonly mode: QuoteMode;
}

/** One request of a poll cycle: a mode (undefined for greeks) and its tokens. */
export interface PollBatch {
  readonly mode: QuoteMode | undefined;
  readonly tokens: readonly number[];
}

/**
 * What to poll: per configured interval, the batches of one cycle; and per token, the
 * fastest interval at which it is polled (its freshness is judged against that one).
 *
 * @example
 * ```ts
 * const plan: PollPlan = planQuotePolls(demands, 50);
 * plan.batches.get(1_000); // [{ mode: 'full', tokens: [...] }, { mode: 'ltp', tokens: [...] }]
 * ```
 */
export interface PollPlan {
  readonly batches: ReadonlyMap<number, readonly PollBatch[]>;
  /** Tokens grouped by the fastest interval that polls them. */
  readonly tokensByInterval: ReadonlyMap<number, readonly number[]>;
}

/**
 * Plans quote polls from every token's demands. A demand (I, M) is met by a poll at an
 * interval no slower than I in a mode covering M, so each token is polled:
 * - at each interval only in the richest mode wanted there (full ⊇ ohlcv ⊇ ltp), and
 * - not at all at an interval whose wants a faster poll already covers.
 * Each interval's tokens are packed into the fewest requests, ⌈tokens / batchSize⌉,
 * letting lower-mode tokens ride in richer batches where that saves a request
 * ({@link packBatches}). Tokens are sorted before batching, so the batches are stable
 * across cycles. Tokens in `held` (set aside or under investigation) are left out of the
 * batches but kept in `tokensByInterval`, whose freshness is still judged.
 *
 * @example
 * ```ts
 * planQuotePolls(new Map([[1, [{ intervalMs: 1_000, mode: 'ltp' }, { intervalMs: 1_000, mode: 'full' }]]]), 50);
 * // one batch: { mode: 'full', tokens: [1] }
 * ```
 */
export function planQuotePolls(
  demands: ReadonlyMap<number, Iterable<QuoteDemand>>,
  batchSize: number,
  held: ReadonlySet<number> = NONE,
): PollPlan {
  const byInterval = new Map<number, Map<QuoteMode, number[]>>();
  const tokensByInterval = new Map<number, number[]>();
  const wanted = new Map<number, QuoteMode>();
  for (const [token, list] of demands) {
    wanted.clear();
    for (const d of list) {
      const m = wanted.get(d.intervalMs);
      wanted.set(d.intervalMs, m === undefined ? d.mode : maxMode(m, d.mode));
    }
    if (wanted.size === 0) continue;
    const intervals = [...wanted.keys()].sort((a, b) => a - b);
    let covered: QuoteMode | undefined;
    for (const intervalMs of intervals) {
      const mode = wanted.get(intervalMs) as QuoteMode;
      if (covered !== undefined && modeCovers(covered, mode)) continue;
      covered = covered === undefined ? mode : maxMode(covered, mode);
      if (held.has(token)) continue;
      pushTo(
        getOrSet(byInterval, intervalMs, () => new Map()),
        mode,
        token,
      );
    }
    pushTo(tokensByInterval, intervals[0] as number, token);
  }
  const batches = new Map<number, PollBatch[]>();
  for (const [intervalMs, modes] of byInterval) {
    for (const tokens of modes.values()) tokens.sort((a, b) => a - b);
    batches.set(
      intervalMs,
      packBatches(
        { full: modes.get('full'), ohlcv: modes.get('ohlcv'), ltp: modes.get('ltp') },
        batchSize,
      ),
    );
  }
  return { batches, tokensByInterval };
}

/**
 * Plans greeks polls: each token once, at the fastest interval any subscriber wants.
 *
 * @example
 * ```ts
 * planGreeksPolls(new Map([[45001, [5_000, 1_000]]]), 50).batches.get(1_000);
 * // [{ mode: undefined, tokens: [45001] }]
 * ```
 */
export function planGreeksPolls(
  demands: ReadonlyMap<number, Iterable<number>>,
  batchSize: number,
  held: ReadonlySet<number> = NONE,
): PollPlan {
  const tokensByInterval = new Map<number, number[]>();
  for (const [token, intervals] of demands) {
    let fastest = Number.POSITIVE_INFINITY;
    for (const i of intervals) fastest = Math.min(fastest, i);
    if (fastest !== Number.POSITIVE_INFINITY) pushTo(tokensByInterval, fastest, token);
  }
  const batches = new Map<number, PollBatch[]>();
  for (const [intervalMs, tokens] of tokensByInterval) {
    tokens.sort((a, b) => a - b);
    batches.set(
      intervalMs,
      chunk(
        tokens.filter((t) => !held.has(t)),
        batchSize,
      ).map((part) => ({ mode: undefined, tokens: part })),
    );
  }
  return { batches, tokensByInterval };
}

/**
 * How much every interval must stretch so that the plan's requests fit the budget:
 * `max(1, Σ batches/interval ÷ budget)`. For one interval this is
 * `max(interval, batches / budget) / interval`.
 *
 * @example
 * ```ts
 * stretchFactor([{ intervalMs: 1_000, batches: 12 }], 10); // 1.2
 * ```
 */
export function stretchFactor(
  groups: Iterable<{ intervalMs: number; batches: number }>,
  requestsPerSecond: number,
): number {
  let perSecond = 0;
  for (const g of groups) perSecond += (g.batches * 1_000) / g.intervalMs;
  return Math.max(1, perSecond / requestsPerSecond);
}

/**
 * Splits `items` into runs of at most `size`.
 *
 * @example
 * ```ts
 * chunk([1, 2, 3], 2); // [[1, 2], [3]]
 * ```
 */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (!(Number.isInteger(size) && size > 0)) throw new RangeError(`bad batch size ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

function getOrSet<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let v = map.get(key);
  if (v === undefined) {
    v = make();
    map.set(key, v);
  }
  return v;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  getOrSet(map, key, () => []).push(value);
}
