import type { BacktestResult } from '../run-backtest.ts';
import { esc, table } from './format.ts';

/** A param value as text: strings as they are, anything else as JSON. */
const valueText = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

/**
 * What ran: each strategy's effective params (its schema's defaults merged with the
 * spec's and the sweep point's; each says which set it), the fill model and
 * backtest settings, and the spec file as written (secret values masked).
 */
export function runSection(result: BacktestResult): string {
  const rows: string[] = [];
  for (const [id, params] of Object.entries(result.effectiveParams)) {
    const entries =
      params !== null && typeof params === 'object'
        ? Object.entries(params as Record<string, unknown>)
        : [['(value)', params] as const];
    for (const [name, value] of entries) {
      const source = Object.hasOwn(result.params, `${id}.${name}`)
        ? 'sweep'
        : Object.hasOwn(result.specParams[id] ?? {}, name)
          ? 'spec'
          : 'default';
      rows.push(
        `<tr><td>${esc(id)}</td><td>${esc(name)}</td><td>${esc(valueText(value))}</td><td>${source}</td></tr>`,
      );
    }
  }
  const f = result.fillModel;
  const data =
    result.dataKind === 'candles'
      ? 'Data: candles, replayed as quotes along each bar; limit and stop orders fill at the touched price, market orders at the next synthesised price plus slippage (docs/backtests.md).'
      : 'Data: a tick recording; orders fill against its recorded quotes and depth.';
  const spec = result.spec;
  const text =
    spec.text === undefined
      ? '<p>The spec was built in code: no file to show.</p>'
      : `<pre id="spec-text">${esc(spec.text)}</pre>`;
  return `<h2>Parameters</h2>
${table('params', ['Strategy', 'Param', 'Value', 'Set by'], rows)}
<p id="fill-model">${data} Fill model: latency ${f.latencyMs} ms, slippage ${f.slippageTicks} ticks. Money in rupees (Indian grouping); times in IST.</p>
<details id="spec" open><summary>Spec: ${esc(spec.file)}</summary>${text}</details>`;
}
