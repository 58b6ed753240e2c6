import type { Paise } from '../../domain/money.ts';
import { legOf } from '../../execution/brackets/leg-ids.ts';
import { RETRY_SUFFIX } from '../../strategy/check-intent.ts';
import type { PriceBars } from '../price-sampler.ts';
import type { RoundTrip } from '../round-trips.ts';
import type { FillRecord } from '../trade-ledger.ts';

/** Why a round trip ended (`end of data`: still open at the end, marked at the last price). */
export type ExitReason =
  | 'target'
  | 'stop'
  | 'bracket exit'
  | 'square-off'
  | 'square-off before close'
  | 'kill switch'
  | 'stop of the run'
  | 'strategy exit'
  | 'end of data';

/** A round trip with what a trader reads next: why it ended, how long, how far it went. */
export interface TradeDetail extends RoundTrip {
  exitReason: ExitReason;
  /** Intent id of the fill that closed it (undefined while open). */
  exitIntentId: string | undefined;
  /** Opened → closed (or → the end of the run while open), ms. */
  durationMs: number;
  /** Maximum adverse excursion for the whole quantity, paise (≤ 0). */
  mae: Paise;
  /** Maximum favourable excursion for the whole quantity, paise (≥ 0). */
  mfe: Paise;
  /** The same per unit, percent of the entry price. */
  maePercent: number;
  mfePercent: number;
}

/**
 * Why a trip ended, from the intent id of the fill that closed it: a bracket's legs
 * (`…/tp`, `…/sl`, `…/exit`), the engine's exits (`auto-eod-…` square-off before the
 * close, `kill-…`, `shutdown-…` at the stop of the run), a strategy's square-off
 * (`<square-off id>:<token>`), else the strategy's own order.
 *
 * @example
 * ```ts
 * exitReasonOf('p4/tp', new Set()); // 'target'
 * exitReasonOf('eod:3045', new Set(['eod'])); // 'square-off'
 * ```
 */
export function exitReasonOf(intentId: string, squareOffIds: ReadonlySet<string>): ExitReason {
  const part = legOf(intentId).part;
  if (part === 'tp') return 'target';
  if (part === 'sl') return 'stop';
  if (part === 'exit') return 'bracket exit';
  if (intentId.startsWith('auto-eod-')) return 'square-off before close';
  if (intentId.startsWith('kill-')) return 'kill switch';
  if (intentId.startsWith('shutdown-')) return 'stop of the run';
  const colon = intentId.lastIndexOf(':');
  // A refused exit's next try is `<square-off id>#retry<n>:<token>`.
  const squareOffId = colon > 0 ? intentId.slice(0, colon).replace(RETRY_SUFFIX, '') : '';
  if (squareOffId !== '' && squareOffIds.has(squareOffId)) return 'square-off';
  return 'strategy exit';
}

/** Index of the first bar starting at or after `at` (bars start in order). */
function firstAtOrAfter(start: readonly number[], at: number): number {
  let lo = 0;
  let hi = start.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((start[mid] as number) < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Highest and lowest price while a trip was open: its entry and exit prices and the
 * bars that started after its opening fill and no later than its closing one (a fill
 * splits its token's bar, so the bar in progress before the entry is not counted).
 */
function rangeWhileOpen(trip: RoundTrip, bars: PriceBars | undefined, end: number) {
  let high = Math.max(trip.entryPrice, trip.exitPrice || trip.entryPrice);
  let low = Math.min(trip.entryPrice, trip.exitPrice || trip.entryPrice);
  if (bars !== undefined) {
    const until = trip.closedAt ?? end;
    for (let i = firstAtOrAfter(bars.start, trip.openedAt); i < bars.start.length; i++) {
      if ((bars.start[i] as number) > until) break;
      high = Math.max(high, bars.high[i] as number);
      low = Math.min(low, bars.low[i] as number);
    }
  }
  return { high, low };
}

const pct = (part: number, whole: number): number =>
  whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100;

/**
 * Each round trip with its exit reason, duration and MAE/MFE (from the one-minute bars
 * of the run's prices). `end` is the run's last instant (for trips still open).
 */
export function tradeDetails(
  trips: readonly RoundTrip[],
  fills: readonly FillRecord[],
  squareOffIds: ReadonlySet<string>,
  prices: readonly PriceBars[],
  end: number,
): TradeDetail[] {
  const byToken = new Map(prices.map((p) => [p.token, p]));
  // The fill that closed a trip: same strategy and token, at its closing instant (last).
  const closing = new Map<string, FillRecord>();
  for (const f of fills) closing.set(`${f.strategyId}\u0000${f.token}\u0000${f.at}`, f);
  return trips.map((t) => {
    const exit =
      t.closedAt === undefined
        ? undefined
        : closing.get(`${t.strategyId}\u0000${t.token}\u0000${t.closedAt}`);
    const { high, low } = rangeWhileOpen(t, byToken.get(t.token), end);
    const long = t.direction === 'long';
    const favourable = Math.max(0, long ? high - t.entryPrice : t.entryPrice - low);
    const adverse = Math.min(0, long ? low - t.entryPrice : t.entryPrice - high);
    // Every key written out in the trip's own order (round-trips.ts), not `...t` and more
    // keys: V8 builds that on a slow path (tens of µs and kilobytes an object, issue 13).
    return {
      strategyId: t.strategyId,
      token: t.token,
      symbol: t.symbol,
      direction: t.direction,
      openedAt: t.openedAt,
      closedAt: t.closedAt,
      quantity: t.quantity,
      entryPrice: t.entryPrice,
      exitPrice: t.exitPrice,
      gross: t.gross,
      costs: t.costs,
      net: t.net,
      exitReason:
        t.closedAt === undefined ? 'end of data' : exitReasonOf(exit?.intentId ?? '', squareOffIds),
      exitIntentId: exit?.intentId,
      durationMs: (t.closedAt ?? end) - t.openedAt,
      mae: adverse * t.quantity,
      mfe: favourable * t.quantity,
      maePercent: pct(adverse, t.entryPrice),
      mfePercent: pct(favourable, t.entryPrice),
    };
  });
}
