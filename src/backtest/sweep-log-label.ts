import type { ParamOverrides } from './backtest-spec.ts';

/**
 * Labels a sweep run's log text with the run it came from. Workers run in parallel, so
 * their lines interleave: unlabelled, two runs' fills read as one run whose clock goes
 * backwards. A pretty line gets `#3 sma.fast=5 sma.slow=13 │ ` before it (every line of
 * the text: a date line, a summary table, an error's stack); a JSON line gets
 * `"sweepRun":3` as its first key (the params by id are in `sweep.json`), so it stays one
 * JSON object a line for tools.
 *
 * @example
 * ```ts
 * labelSweepLog('09:36:01 IST  sma  BUY 100 SBIN-EQ …\n', 3, { 'sma.fast': 5 });
 * // '#3 sma.fast=5 │ 09:36:01 IST  sma  BUY 100 SBIN-EQ …\n'
 * ```
 */
export function labelSweepLog(text: string, id: number, params: ParamOverrides): string {
  const point = Object.entries(params)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
  const prefix = `#${id}${point === '' ? '' : ` ${point}`} │ `;
  const lines = text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n');
  return `${lines.map((l) => (l.startsWith('{"') ? `{"sweepRun":${id},${l.slice(1)}` : `${prefix}${l}`)).join('\n')}\n`;
}
