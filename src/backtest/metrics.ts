import type { Paise } from '../domain/money.ts';
import type { Charges } from './cost-model.ts';
import type { RoundTrip } from './round-trips.ts';

/** One sample of the equity curve. */
export interface EquityPoint {
  /** Epoch ms. */
  at: number;
  /** Capital + realised + unrealised − charges, paise. */
  equity: Paise;
  /** Below the running peak, paise (≥ 0). */
  drawdown: Paise;
  /** Absolute value of open positions at their mark, paise. */
  exposure: Paise;
  /** Whether a session was open (only open samples count for Sharpe and exposure). */
  open: boolean;
}

/**
 * An equity curve as columns, oldest sample first: `length` samples, the i-th being
 * `{ at: at[i], equity: equity[i], drawdown: drawdown[i], exposure: exposure[i], open:
 * open[i] === 1 }`. What a backtest keeps (`EquitySeries`) and the summary and the report
 * read, so a long run's curve is never one object a sample.
 */
export interface EquityColumns {
  readonly length: number;
  readonly at: Float64Array;
  readonly equity: Float64Array;
  readonly drawdown: Float64Array;
  readonly exposure: Float64Array;
  readonly open: Uint8Array;
}

/** `curve` as columns: as it is when it already is, else copied out of its points. */
export function equityColumns(curve: readonly EquityPoint[] | EquityColumns): EquityColumns {
  if (!Array.isArray(curve)) return curve as EquityColumns;
  const points = curve as readonly EquityPoint[];
  const n = points.length;
  const c = {
    length: n,
    at: new Float64Array(n),
    equity: new Float64Array(n),
    drawdown: new Float64Array(n),
    exposure: new Float64Array(n),
    open: new Uint8Array(n),
  };
  points.forEach((p, i) => {
    c.at[i] = p.at;
    c.equity[i] = p.equity;
    c.drawdown[i] = p.drawdown;
    c.exposure[i] = p.exposure;
    c.open[i] = p.open ? 1 : 0;
  });
  return c;
}

/** Summary statistics of a backtest (money in paise). See docs/backtests.md. */
export interface Summary {
  startMs: number;
  endMs: number;
  capital: Paise;
  finalEquity: Paise;
  grossPnl: Paise;
  costs: Charges;
  netPnl: Paise;
  /** netPnl / capital, percent. */
  returnPercent: number;
  maxDrawdown: Paise;
  /** Largest drawdown as a percent of the peak it fell from. */
  maxDrawdownPercent: number;
  /** Annualised: mean/stdev of per-sample equity changes over capital, × √(samples a year). */
  sharpe: number;
  /** Closed round trips with net > 0, percent. */
  winRate: number;
  /** Σ winning nets / |Σ losing nets|; null when no trade lost. */
  profitFactor: number | null;
  /** Closed round trips. */
  trades: number;
  openTrades: number;
  fills: number;
  orders: number;
  intents: number;
  /** Share of in-session samples holding a position, percent. */
  exposurePercent: number;
  maxExposure: Paise;
  /** Quote and greeks records the replay decoded and pushed to the market, up to the end. */
  quoteEvents: number;
  /** Orders the engine or the broker rejected (listed in the result's `rejections`). */
  rejected: number;
  /** Intents a risk or state check denied before sending (listed in `rejections`). */
  denied: number;
}

/** Inputs of {@link summarize}. */
export interface SummaryInput {
  startMs: number;
  endMs: number;
  capital: Paise;
  /** The curve as points or, from a backtest, as columns. */
  equity: readonly EquityPoint[] | EquityColumns;
  trips: readonly RoundTrip[];
  grossPnl: Paise;
  costs: Charges;
  fills: number;
  orders: number;
  intents: number;
  intervalSeconds: number;
  quoteEvents: number;
  /** Rejected orders; 0 when not given. */
  rejected?: number;
  /** Denied intents; 0 when not given. */
  denied?: number;
}

/** Open seconds in a trading year: 252 sessions of 6 h 15 min. */
const OPEN_SECONDS_PER_YEAR = 252 * 22_500;

/**
 * Summary statistics from the equity curve and the round trips.
 *
 * @example
 * ```ts
 * const s = summarize({ ...input });
 * console.log(s.netPnl, s.sharpe);
 * ```
 */
export function summarize(input: SummaryInput): Summary {
  const { capital, trips } = input;
  // Columns: a month of samples read in place, without an object a sample.
  const curve = equityColumns(input.equity);
  const netPnl = input.grossPnl - input.costs.total;
  let maxDd = 0;
  let maxDdPct = 0;
  let peak = capital;
  let maxExposure = 0;
  // Sharpe's returns are between consecutive in-session samples.
  let open = 0;
  let exposed = 0;
  let before: number | undefined;
  const returns: number[] = [];
  for (let i = 0; i < curve.length; i++) {
    const equity = curve.equity[i] as number;
    const exposure = curve.exposure[i] as number;
    peak = Math.max(peak, equity);
    const dd = peak - equity;
    if (dd > maxDd) maxDd = dd;
    if (peak > 0) maxDdPct = Math.max(maxDdPct, (dd / peak) * 100);
    maxExposure = Math.max(maxExposure, exposure);
    if (curve.open[i] !== 1) continue;
    open += 1;
    if (exposure !== 0) exposed += 1;
    if (before !== undefined) returns.push((equity - before) / capital);
    before = equity;
  }
  const closed = trips.filter((t) => t.closedAt !== undefined);
  const wins = closed.filter((t) => t.net > 0);
  const won = wins.reduce((s, t) => s + t.net, 0);
  const lost = -closed.filter((t) => t.net < 0).reduce((s, t) => s + t.net, 0);
  return {
    startMs: input.startMs,
    endMs: input.endMs,
    capital,
    finalEquity: capital + netPnl,
    grossPnl: input.grossPnl,
    costs: input.costs,
    netPnl,
    returnPercent: round((netPnl / capital) * 100, 4),
    maxDrawdown: maxDd,
    maxDrawdownPercent: round(maxDdPct, 4),
    sharpe: round(sharpe(returns, OPEN_SECONDS_PER_YEAR / input.intervalSeconds), 4),
    winRate: closed.length === 0 ? 0 : round((wins.length / closed.length) * 100, 2),
    profitFactor: lost === 0 ? null : round(won / lost, 4),
    trades: closed.length,
    openTrades: trips.length - closed.length,
    fills: input.fills,
    orders: input.orders,
    intents: input.intents,
    exposurePercent: open === 0 ? 0 : round((exposed / open) * 100, 2),
    maxExposure,
    quoteEvents: input.quoteEvents,
    rejected: input.rejected ?? 0,
    denied: input.denied ?? 0,
  };
}

/** Annualised Sharpe ratio of per-period returns (risk-free 0); 0 without variance. */
function sharpe(returns: readonly number[], periodsPerYear: number): number {
  if (returns.length < 2) return 0;
  const mean = returns.reduce((s, r) => s + r, 0) / returns.length;
  const variance = returns.reduce((s, r) => s + (r - mean) ** 2, 0) / (returns.length - 1);
  const sd = Math.sqrt(variance);
  return sd === 0 ? 0 : (mean / sd) * Math.sqrt(periodsPerYear);
}

function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}
