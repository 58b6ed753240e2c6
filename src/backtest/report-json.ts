import type { BacktestResult } from './run-backtest.ts';

/**
 * The JSON report: the whole result, money in integer paise (field names say so in
 * docs/backtests.md), instants as epoch ms plus an ISO copy for people.
 *
 * @example
 * ```ts
 * await writeFile('report.json', reportJson(result));
 * ```
 */
export function reportJson(result: BacktestResult): string {
  return [...reportJsonParts(result)].join('');
}

/** Stands for the equity curve in the rest of the report while that is stringified. */
const EQUITY_SLOT = '\u0000equity\u0000';
/** Points of the equity curve stringified at a time. */
const EQUITY_CHUNK = 2_000;

/**
 * {@link reportJson}'s text in parts, the same bytes once joined: the report without its
 * equity curve, then the curve a few thousand points at a time. A month of 60 s samples
 * is tens of thousands of points (megabytes of text); written part by part, the report
 * never holds the whole text in memory at once.
 */
export function* reportJsonParts(result: BacktestResult): Generator<string> {
  const iso = (ms: number | undefined): string | null =>
    ms === undefined ? null : new Date(ms).toISOString();
  const report = {
    format: 'tiqs-runner-backtest-report',
    version: 1,
    money: 'integer paise',
    name: result.name,
    params: result.params,
    summary: {
      ...result.summary,
      start: iso(result.summary.startMs),
      end: iso(result.summary.endMs),
    },
    strategies: result.strategies,
    fillModel: result.fillModel,
    costModel: result.costModel,
    trades: result.trades.map((t) => ({ ...t, opened: iso(t.openedAt), closed: iso(t.closedAt) })),
    fills: result.fills,
    orders: result.orders,
    intents: result.intents,
    // Indicator series for the price chart: { strategyId, name, at, value }, prices in paise.
    plots: result.plots,
    // Rejected and denied orders: { at, strategy, token, symbol?, side, quantity, kind, reason }.
    rejections: result.rejections,
    // Tokens subscribed that the data lacks (a run with --allow-missing); null when none.
    missingData: result.missingData ?? null,
    equity: EQUITY_SLOT,
    elapsedMs: result.elapsedMs,
  };
  const text = `${JSON.stringify(report, null, 1)}\n`;
  const slot = JSON.stringify(EQUITY_SLOT);
  const at = text.indexOf(slot);
  yield text.slice(0, at);
  const { equity } = result;
  if (equity.length === 0) yield '[]';
  else {
    // As JSON.stringify(report, null, 1) lays out an array at depth 1: elements at depth 2.
    for (let i = 0; i < equity.length; i += EQUITY_CHUNK) {
      const items = equity
        .slice(i, i + EQUITY_CHUNK)
        .map((p) => `  ${JSON.stringify(p, null, 1).replace(/\n/g, '\n  ')}`);
      yield `${i === 0 ? '[\n' : ',\n'}${items.join(',\n')}`;
    }
    yield '\n ]';
  }
  yield text.slice(at + slot.length);
}
