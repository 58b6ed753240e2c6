import { mkdir, open, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { analyze } from './report/analysis.ts';
import { reportHtml } from './report-html.ts';
import { reportJsonParts } from './report-json.ts';
import type { BacktestResult } from './run-backtest.ts';

/**
 * Writes `report.json` and `report.html` into `dir` (created if missing) and returns
 * their paths.
 *
 * @example
 * ```ts
 * const { json, html } = await writeReport(result, 'backtests/out/sma-crossover');
 * ```
 */
export async function writeReport(
  result: BacktestResult,
  dir: string,
): Promise<{ json: string; html: string }> {
  await mkdir(dir, { recursive: true });
  const json = join(dir, 'report.json');
  const html = join(dir, 'report.html');
  // Part by part: a long run's equity curve is megabytes of text, never held whole.
  // Derived once (exit reasons, MAE/MFE, breakdowns, periods), shown by both.
  const analysis = analyze(result);
  const file = await open(json, 'w');
  try {
    for (const part of reportJsonParts(result, analysis)) await file.write(part);
  } finally {
    await file.close();
  }
  await writeFile(html, reportHtml(result, analysis));
  return { json, html };
}
