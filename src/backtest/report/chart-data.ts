import type { PlotPoint } from '../../strategy/strategy-context.ts';
import type { BacktestResult } from '../run-backtest.ts';
import { type Analysis, priceAt } from './analysis.ts';
import { IST_SECONDS } from './format.ts';
import type { InstrumentBars } from './report-inputs.ts';

/** A chart time: epoch seconds shifted to read as IST on the charts' UTC axis. */
const chartTime = (ms: number): number => Math.floor(ms / 1_000) + IST_SECONDS;
const minuteTime = (ms: number): number => chartTime(Math.floor(ms / 60_000) * 60_000);

/** Fills on a chart up to which markers are labelled (`Buy 20 · stop`). */
const MARKER_LABELS = 40;

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

/** One traded instrument's chart: candles in rupees, a marker per fill, plots. */
interface InstrumentChart {
  token: number;
  symbol: string;
  bars: { time: number; open: number; high: number; low: number; close: number }[];
  markers: {
    time: number;
    position: string;
    price: number;
    shape: string;
    color: string;
    text: string;
  }[];
  plots: PlotSeries[];
}

/** What the page's script draws. */
export interface ChartData {
  /** Equity (₹), drawdown (% below the peak, ≤ 0), benchmark equity (₹) per second. */
  equity: { time: number; e: number; d: number; b: number | null }[];
  benchmark: string | null;
  instruments: InstrumentChart[];
}

/** One-minute candles in rupees (a fill splits a minute in two: they are joined back). */
function candles(p: InstrumentBars): InstrumentChart['bars'] {
  const out: InstrumentChart['bars'] = [];
  for (let i = 0; i < p.start.length; i++) {
    const time = minuteTime(p.start[i] as number);
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

/** Plot points of one series, one per chart second (the last), in time order. */
function plotPoints(points: readonly PlotPoint[], scale: number): Point[] {
  const bySecond = new Map<number, number>();
  for (const p of points) bySecond.set(chartTime(p.at), p.value / scale);
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
    out.push({ name, overlay, points: plotPoints(points, overlay ? 100 : 1) });
  }
  return out;
}

/**
 * The data behind the report's charts: the equity curve with its drawdown (as a
 * negative % below the running peak) and the benchmark bought and held with the same
 * capital; a candlestick chart per traded instrument with a marker per fill at its
 * price and the strategies' plots over it or in a pane below.
 */
export function chartData(result: BacktestResult, analysis: Analysis): ChartData {
  const bench = result.prices.find((p) => p.token === analysis.benchmark?.token);
  const benchPrice = bench === undefined ? undefined : priceAt(bench);
  const start = analysis.benchmark?.startPrice ?? 0;
  const capital = result.summary.capital;
  const equity = new Map<number, ChartData['equity'][number]>();
  let wasOpen = true;
  for (const p of result.equity) {
    // Nights and holidays change nothing: their first sample stays (a flat step), the rest
    // would only stretch the time axis (a year of 60 s samples is 525 600, 94 500 in session).
    const keep = p.open || wasOpen;
    wasOpen = p.open;
    if (!keep && p !== result.equity.at(-1)) continue;
    const peak = p.equity + p.drawdown;
    const price = benchPrice?.(p.at);
    equity.set(chartTime(p.at), {
      time: chartTime(p.at),
      e: p.equity / 100,
      d: peak <= 0 || p.drawdown === 0 ? 0 : -Math.round((p.drawdown / peak) * 1_000_000) / 10_000,
      b: price === undefined || start <= 0 ? null : Math.round((capital * price) / start) / 100,
    });
  }
  const traded = new Map<number, Set<string>>();
  for (const f of result.fills) {
    const s = traded.get(f.token) ?? new Set<string>();
    s.add(f.strategyId);
    traded.set(f.token, s);
  }
  const exits = new Map<string, string>();
  for (const t of analysis.trades) {
    if (t.exitIntentId !== undefined)
      exits.set(`${t.strategyId}\u0000${t.exitIntentId}`, t.exitReason);
  }
  const instruments: InstrumentChart[] = [];
  for (const p of result.prices) {
    const strategies = traded.get(p.token);
    if (strategies === undefined) continue;
    const bars = candles(p);
    const times = bars.map((b) => b.time);
    // A marker sits on a bar: the fill's minute, or the nearest bar before it.
    const snap = (ms: number): number => {
      const t = minuteTime(ms);
      let lo = 0;
      let hi = times.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if ((times[mid] as number) <= t) lo = mid;
        else hi = mid - 1;
      }
      return times[lo] ?? t;
    };
    const markers = result.fills
      .filter((f) => f.token === p.token)
      .map((f) => ({
        // An exit's marker says why it exited (a target, a stop, a square-off…).
        reason: exits.get(`${f.strategyId}\u0000${f.intentId}`),
        time: snap(f.at),
        position: f.side === 'B' ? 'atPriceBottom' : 'atPriceTop',
        price: f.price / 100,
        shape: f.side === 'B' ? 'arrowUp' : 'arrowDown',
        color: f.side === 'B' ? '#0a7f3f' : '#c0262d',
        text: `${f.side === 'B' ? 'Buy' : 'Sell'} ${f.quantity}`,
      }))
      .map(({ reason, ...m }) =>
        reason === undefined || reason === 'strategy exit'
          ? m
          : { ...m, text: `${m.text} · ${reason}` },
      )
      .sort((a, b) => a.time - b.time);
    // Many fills on one chart: arrows only, or the labels cover the candles (tables say more).
    if (markers.length > MARKER_LABELS) for (const m of markers) m.text = '';
    instruments.push({
      token: p.token,
      symbol: p.symbol,
      bars,
      markers,
      plots: plotsFor(result, p, strategies),
    });
  }
  return {
    equity: [...equity.values()],
    benchmark: analysis.benchmark?.symbol ?? null,
    instruments,
  };
}
