import { formatInr } from '../domain/money.ts';
import type { Summary } from './metrics.ts';

/**
 * The summary as aligned text lines for the terminal (₹ in Indian grouping, percents),
 * after any `warnings` (say, tokens the data lacked, with `--allow-missing`).
 *
 * @example
 * ```ts
 * process.stdout.write(formatSummary(result.summary));
 * ```
 */
export function formatSummary(s: Summary, notes: { warnings?: readonly string[] } = {}): string {
  const r = formatInr;
  const c = s.costs;
  const lines: [string, string][] = [
    ['net PnL', r(s.netPnl)],
    ['gross PnL', r(s.grossPnl)],
    [
      'costs',
      `${r(c.total)} (brokerage ${r(c.brokerage)}, STT ${r(c.stt)}, exchange ${r(c.exchange)}, SEBI ${r(c.sebi)}, stamp ${r(c.stamp)}, GST ${r(c.gst)})`,
    ],
    ['return', `${s.returnPercent}% on ${r(s.capital)}`],
    ['max drawdown', `${r(s.maxDrawdown)} (${s.maxDrawdownPercent}%)`],
    ['sharpe', String(s.sharpe)],
    ['win rate', `${s.winRate}%`],
    ['trades', `${s.trades} closed, ${s.openTrades} open`],
    ['orders / fills', `${s.orders} / ${s.fills}`],
    [
      'rejected',
      `${s.rejected} rejected, ${s.denied} denied${s.rejected + s.denied > 0 ? ' (listed in report.json)' : ''}`,
    ],
    ['exposure', `${s.exposurePercent}% of session time, max ${r(s.maxExposure)}`],
    ['quote events', String(s.quoteEvents)],
  ];
  // Warnings first, each of its lines indented under the label: they change what the figures mean.
  const warnings = (notes.warnings ?? []).map(
    (w) => `  ${'WARNING'.padEnd(15)} ${w.replace(/\n/g, `\n  ${' '.repeat(16)}`)}`,
  );
  return `${[...warnings, ...lines.map(([k, v]) => `  ${k.padEnd(15)} ${v}`)].join('\n')}\n`;
}
