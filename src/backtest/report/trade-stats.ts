import type { Paise } from '../../domain/money.ts';
import type { TradeDetail } from './trade-details.ts';

/** Trade statistics of a group of round trips (all, one symbol, one strategy…). */
export interface TradeStats {
  /** What the group is: a symbol, a strategy id, an exit reason, or `all`. */
  key: string;
  /** Closed round trips (open ones are counted in `open` only). */
  trades: number;
  open: number;
  wins: number;
  losses: number;
  /** wins ÷ trades, percent. */
  winRate: number;
  gross: Paise;
  costs: Paise;
  net: Paise;
  /** Σ winning nets ÷ |Σ losing nets|; null without a loss. */
  profitFactor: number | null;
  /** Mean net of a closed trip, paise: what a trade is worth on average. */
  expectancy: Paise;
  avgWin: Paise;
  /** ≤ 0. */
  avgLoss: Paise;
  bestTrade: Paise;
  worstTrade: Paise;
  avgDurationMs: number;
  maxDurationMs: number;
}

const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};

const mean = (xs: readonly number[]): number =>
  xs.length === 0 ? 0 : xs.reduce((s, x) => s + x, 0) / xs.length;

/**
 * Statistics of closed round trips (open ones only counted): win rate, profit factor,
 * expectancy (mean net), average win and loss, best and worst trade, durations. Money
 * is paise, rounded to whole paise.
 *
 * @example
 * ```ts
 * tradeStats('all', details).expectancy; // -2583
 * ```
 */
export function tradeStats(key: string, trips: readonly TradeDetail[]): TradeStats {
  const closed = trips.filter((t) => t.closedAt !== undefined);
  const nets = closed.map((t) => t.net);
  const wins = nets.filter((n) => n > 0);
  const losses = nets.filter((n) => n < 0);
  const won = wins.reduce((s, n) => s + n, 0);
  const lost = -losses.reduce((s, n) => s + n, 0);
  const durations = closed.map((t) => t.durationMs);
  return {
    key,
    trades: closed.length,
    open: trips.length - closed.length,
    wins: wins.length,
    losses: losses.length,
    winRate: closed.length === 0 ? 0 : round((wins.length / closed.length) * 100, 2),
    gross: closed.reduce((s, t) => s + t.gross, 0),
    costs: closed.reduce((s, t) => s + t.costs, 0),
    net: won - lost,
    profitFactor: lost === 0 ? null : round(won / lost, 4),
    expectancy: Math.round(mean(nets)),
    avgWin: Math.round(mean(wins)),
    avgLoss: Math.round(mean(losses)),
    bestTrade: nets.reduce((m, n) => Math.max(m, n), nets[0] ?? 0),
    worstTrade: nets.reduce((m, n) => Math.min(m, n), nets[0] ?? 0),
    avgDurationMs: Math.round(mean(durations)),
    maxDurationMs: durations.reduce((m, d) => Math.max(m, d), 0),
  };
}

/** {@link tradeStats} of each group of trips, by `keyOf`, in order of first appearance. */
export function tradeStatsBy(
  trips: readonly TradeDetail[],
  keyOf: (t: TradeDetail) => string,
): TradeStats[] {
  const groups = new Map<string, TradeDetail[]>();
  for (const t of trips) {
    const k = keyOf(t);
    const g = groups.get(k);
    if (g === undefined) groups.set(k, [t]);
    else g.push(t);
  }
  return [...groups].map(([k, g]) => tradeStats(k, g));
}
