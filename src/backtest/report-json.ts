import { type Analysis, analyze } from './report/analysis.ts';
import type { BacktestResult } from './run-backtest.ts';

/**
 * The JSON report: the whole result, money in integer paise (field names say so in
 * docs/backtests.md), instants as epoch ms plus an ISO copy for people, and what the
 * report derives from it ({@link analyze}: per-trade exit reason, duration and MAE/MFE,
 * breakdowns, daily and monthly returns, the benchmark).
 *
 * @example
 * ```ts
 * await writeFile('report.json', reportJson(result));
 * ```
 */
export function reportJson(result: BacktestResult, analysis: Analysis = analyze(result)): string {
  return [...reportJsonParts(result, analysis)].join('');
}

/** Stand for the long arrays in the rest of the report while that is stringified. */
const EQUITY_SLOT = '\u0000equity\u0000';
const PRICES_SLOT = '\u0000prices\u0000';
/** Points of the equity curve stringified at a time. */
const EQUITY_CHUNK = 2_000;

/** Array items as `JSON.stringify(report, null, 1)` lays them out at depth 1. */
function* arrayItems<T>(items: readonly T[], chunk: number): Generator<string> {
  if (items.length === 0) {
    yield '[]';
    return;
  }
  for (let i = 0; i < items.length; i += chunk) {
    const text = items
      .slice(i, i + chunk)
      .map((p) => `  ${JSON.stringify(p, null, 1).replace(/\n/g, '\n  ')}`);
    yield `${i === 0 ? '[\n' : ',\n'}${text.join(',\n')}`;
  }
  yield '\n ]';
}

/**
 * {@link reportJson}'s text in parts, the same bytes once joined: the report without its
 * equity curve and price bars, then the curve a few thousand points at a time and the
 * bars an instrument at a time. A month of 60 s samples is tens of thousands of points
 * (megabytes of text); written part by part, the report never holds the whole text in
 * memory at once.
 */
export function* reportJsonParts(
  result: BacktestResult,
  analysis: Analysis = analyze(result),
): Generator<string> {
  const iso = (ms: number | undefined): string | null =>
    ms === undefined ? null : new Date(ms).toISOString();
  const { trades, ...stats } = analysis;
  const report = {
    format: 'tiqs-runner-backtest-report',
    version: 1,
    money: 'integer paise',
    name: result.name,
    params: result.params,
    // Strategy id → params it ran with (schema defaults, spec, sweep point merged).
    effectiveParams: result.effectiveParams,
    // Strategy id → params the spec file writes (the rest of effectiveParams are defaults).
    specParams: result.specParams,
    // The spec file as written, secret values masked.
    spec: result.spec,
    // 'ticks' (fills against recorded depth) or 'candles' (the bar fill model).
    dataKind: result.dataKind,
    summary: {
      ...result.summary,
      start: iso(result.summary.startMs),
      end: iso(result.summary.endMs),
    },
    strategies: result.strategies,
    fillModel: result.fillModel,
    costModel: result.costModel,
    // Round trips with exitReason, durationMs, mae/mfe (paise, whole quantity) and %.
    trades: trades.map((t) => ({ ...t, opened: iso(t.openedAt), closed: iso(t.closedAt) })),
    fills: result.fills,
    orders: result.orders,
    intents: result.intents,
    // Indicator series for the price chart: { strategyId, name, at, value }, prices in paise.
    plots: result.plots,
    // Rejected and denied orders: { at, strategy, token, symbol?, side, quantity, kind, reason }.
    rejections: result.rejections,
    // Tokens subscribed that the data lacks (a run with --allow-missing); null when none.
    missingData: result.missingData ?? null,
    // What the data made of the run (an unfinished candle download, bars outside every session).
    warnings: result.warnings ?? [],
    // Failed strategy id → what it failed with.
    failures: result.failures ?? {},
    // overall / bySymbol / byStrategy / byExitReason stats, daily and monthly returns,
    // best and worst day, the buy-and-hold benchmark.
    stats,
    benchmarkToken: result.benchmarkToken ?? null,
    // One-minute bars per instrument: { token, symbol, start[], open[], high[], low[], close[] }.
    prices: PRICES_SLOT,
    equity: EQUITY_SLOT,
    elapsedMs: result.elapsedMs,
  };
  const text = `${JSON.stringify(report, null, 1)}\n`;
  const prices = text.indexOf(JSON.stringify(PRICES_SLOT));
  const equity = text.indexOf(JSON.stringify(EQUITY_SLOT));
  yield text.slice(0, prices);
  yield* arrayItems(result.prices, 1);
  yield text.slice(prices + JSON.stringify(PRICES_SLOT).length, equity);
  yield* arrayItems(result.equity, EQUITY_CHUNK);
  yield text.slice(equity + JSON.stringify(EQUITY_SLOT).length);
}
