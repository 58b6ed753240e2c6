import type { PlotPoint } from '../../strategy/strategy-context.ts';
import type { BacktestResult } from '../run-backtest.ts';
import { type Analysis, equityOf, priceAt } from './analysis.ts';
import { type ChartResolution, chartResolution } from './chart-resolution.ts';
import { IST_SECONDS } from './format.ts';
import type { InstrumentBars } from './report-inputs.ts';
import { type TradeMarker, tradeMarkers } from './trade-markers.ts';

/** A chart time: epoch seconds shifted to read as IST on the charts' UTC axis. */
const chartTime = (ms: number): number => Math.floor(ms / 1_000) + IST_SECONDS;

interface Point {
  time: number;
  value: number;
}

/** One `ctx.plot` series as drawn: on the price (rupees) or in a pane below (as given). */
interface PlotSeries {
  name: string;
  overlay: boolean;
  points: Point[];
}

/** One traded instrument's chart: candles in rupees, a marker per trade entry and exit, plots. */
interface InstrumentChart {
  token: number;
  symbol: string;
  bars: { time: number; open: number; high: number; low: number; close: number }[];
  markers: TradeMarker[];
  plots: PlotSeries[];
}

/** What the page's script draws. */
export interface ChartData {
  /**
   * Equity (₹), drawdown (% below the peak, ≤ 0), benchmark equity (₹): per sample at
   * 1-minute resolution, else per bar (the bar's last equity, its deepest drawdown).
   */
  equity: { time: number; e: number; d: number; b: number | null }[];
  /** The bar the charts are drawn at (`1m` … `1d`) and how the page says it. */
  resolution: { label: ChartResolution['label']; words: string };
  benchmark: string | null;
  instruments: InstrumentChart[];
}

/** Candles in rupees, one per bar of `res` (a fill splits a minute in two: joined back). */
function candles(p: InstrumentBars, res: ChartResolution): InstrumentChart['bars'] {
  const out: InstrumentChart['bars'] = [];
  for (let i = 0; i < p.start.length; i++) {
    const time = chartTime(res.bucket(p.start[i] as number));
    const [o, h, l, c] = [p.open[i], p.high[i], p.low[i], p.close[i]].map(
      (x) => (x ?? 0) / 100,
    ) as [number, number, number, number];
    const last = out.at(-1);
    if (last?.time === time) {
      last.high = Math.max(last.high, h);
      last.low = Math.min(last.low, l);
      last.close = c;
    } else out.push({ time, open: o, high: h, low: l, close: c });
  }
  return out;
}

/** Plot points of one series, one per chart second (the last; per bar when coarser than 1m). */
function plotPoints(points: readonly PlotPoint[], scale: number, res: ChartResolution): Point[] {
  const at = res.label === '1m' ? chartTime : (ms: number) => chartTime(res.bucket(ms));
  const bySecond = new Map<number, number>();
  for (const p of points) bySecond.set(at(p.at), p.value / scale);
  return [...bySecond].map(([time, value]) => ({ time, value }));
}

/** Whether a series' values sit in the price's range (then it is drawn over the candles). */
function onPrice(points: readonly PlotPoint[], p: InstrumentBars): boolean {
  if (points.length === 0 || p.low.length === 0) return false;
  const values = points.map((x) => x.value).sort((a, b) => a - b);
  const median = values[values.length >> 1] as number;
  const low = p.low.reduce((m, x) => Math.min(m, x), Number.POSITIVE_INFINITY);
  const high = p.high.reduce((m, x) => Math.max(m, x), 0);
  return median >= low * 0.5 && median <= high * 2;
}

/**
 * The plots that belong to an instrument's chart: a series naming the symbol
 * (`rsi:SBIN-EQ`), else every series of the strategies that traded it.
 */
function plotsFor(
  result: BacktestResult,
  p: InstrumentBars,
  strategies: Set<string>,
  res: ChartResolution,
): PlotSeries[] {
  const series = new Map<string, PlotPoint[]>();
  for (const x of result.plots) {
    const key = `${x.strategyId}\u0000${x.name}`;
    const list = series.get(key);
    if (list === undefined) series.set(key, [x]);
    else list.push(x);
  }
  const symbols = result.prices.map((i) => i.symbol.toUpperCase());
  const bare = (s: string): string => s.replace(/-(EQ|BE)$/, '');
  const names = (name: string) => symbols.filter((s) => name.toUpperCase().includes(bare(s)));
  const out: PlotSeries[] = [];
  for (const points of series.values()) {
    const first = points[0] as PlotPoint;
    const named = names(first.name);
    const mine =
      named.length > 0 ? named.includes(p.symbol.toUpperCase()) : strategies.has(first.strategyId);
    if (!mine) continue;
    const overlay = onPrice(points, p);
    const name = `${first.strategyId}.${first.name}`;
    out.push({ name, overlay, points: plotPoints(points, overlay ? 100 : 1, res) });
  }
  return out;
}

/**
 * The data behind the report's charts: the equity curve with its drawdown (as a
 * negative % below the running peak) and the benchmark bought and held with the same
 * capital; a candlestick chart per traded instrument with a marker per trade entry and
 * exit at its price and the strategies' plots over it or in a pane below. All at one
 * resolution ({@link chartResolution}) that a chart can show whole.
 */
export function chartData(result: BacktestResult, analysis: Analysis): ChartData {
  const bench = result.prices.find((p) => p.token === analysis.benchmark?.token);
  const benchPrice = bench === undefined ? undefined : priceAt(bench);
  const start = analysis.benchmark?.startPrice ?? 0;
  const capital = result.summary.capital;
  // A year of 1-minute points opens on its last week (the chart's minimum bar spacing):
  // coarser bars once the run's minutes no longer fit.
  // The columns a backtest keeps (a hand-built result's points otherwise): no object a sample.
  const curve = equityOf(result);
  const openTimes: number[] = [];
  for (let i = 0; i < curve.length; i++)
    if (curve.open[i] === 1) openTimes.push(curve.at[i] as number);
  const res = chartResolution(openTimes);
  const fine = res.label === '1m';
  const equity = new Map<number, ChartData['equity'][number]>();
  let wasOpen = true;
  for (let i = 0; i < curve.length; i++) {
    const at = curve.at[i] as number;
    const open = curve.open[i] === 1;
    const value = curve.equity[i] as number;
    const drawdown = curve.drawdown[i] as number;
    // Nights and holidays change nothing: their first sample stays (a flat step), the rest
    // would only stretch the time axis (a year of 60 s samples is 525 600, 94 500 in session).
    // In coarser bars the session's last bar already holds that level.
    const keep = fine ? open || wasOpen : open;
    wasOpen = open;
    if (!keep && i !== curve.length - 1) continue;
    const peak = value + drawdown;
    const price = benchPrice?.(at);
    const time = chartTime(fine ? at : res.bucket(at));
    const d = peak <= 0 || drawdown === 0 ? 0 : -Math.round((drawdown / peak) * 1_000_000) / 10_000;
    // A bar keeps its deepest drawdown, so the run's max drawdown survives the coarsening.
    const deepest = Math.min(d, equity.get(time)?.d ?? 0);
    equity.set(time, {
      time,
      e: value / 100,
      d: fine ? d : deepest,
      b: price === undefined || start <= 0 ? null : Math.round((capital * price) / start) / 100,
    });
  }
  const traded = new Map<number, Set<string>>();
  for (const f of result.fills) {
    const s = traded.get(f.token) ?? new Set<string>();
    s.add(f.strategyId);
    traded.set(f.token, s);
  }
  const instruments: InstrumentChart[] = [];
  for (const p of result.prices) {
    const strategies = traded.get(p.token);
    if (strategies === undefined) continue;
    const bars = candles(p, res);
    const times = bars.map((b) => b.time);
    // A marker sits on a bar: the one holding the fill, or the nearest bar before it.
    const snap = (ms: number): number => {
      const t = chartTime(res.bucket(ms));
      let lo = 0;
      let hi = times.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((times[mid] as number) <= t) lo = mid;
        else hi = mid - 1;
      }
      return times[lo] ?? t;
    };
    const markers = tradeMarkers(
      analysis.trades.filter((t) => t.token === p.token),
      snap,
    );
    instruments.push({
      token: p.token,
      symbol: p.symbol,
      bars,
      markers,
      plots: plotsFor(result, p, strategies, res),
    });
  }
  return {
    equity: [...equity.values()],
    resolution: { label: res.label, words: res.words },
    benchmark: analysis.benchmark?.symbol ?? null,
    instruments,
  };
}
