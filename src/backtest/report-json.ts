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
    equity: result.equity,
    elapsedMs: result.elapsedMs,
  };
  return `${JSON.stringify(report, null, 1)}\n`;
}
