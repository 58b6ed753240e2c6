import type { ParamOverrides } from './backtest-spec.ts';

/**
 * Every combination of a sweep's values, in a stable order (keys sorted, values as
 * listed), so job ids mean the same on every machine.
 *
 * @example
 * ```ts
 * sweepGrid({ 'sma.fast': [3, 5], 'sma.slow': [8, 13] }).length; // 4
 * ```
 */
export function sweepGrid(
  params: Readonly<Record<string, readonly (number | string | boolean)[]>>,
): ParamOverrides[] {
  let grid: Record<string, number | string | boolean>[] = [{}];
  for (const key of Object.keys(params).sort()) {
    const values = params[key] ?? [];
    grid = grid.flatMap((point) => values.map((v) => ({ ...point, [key]: v })));
  }
  return grid;
}
