import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { analyze } from './report/analysis.ts';
import { reportHtml } from './report-html.ts';
import { reportJsonParts } from './report-json.ts';
import type { BacktestResult } from './run-backtest.ts';

/**
 * Writes `report.json` and `report.html` into `dir` (created if missing) and returns
 * their paths. All or nothing: both are written beside as `*.tmp` and renamed into
 * place only once both are complete, so a kill, a full disk or a throw leaves the
 * previous run's pair (or none) untouched, never a truncated report or a new JSON
 * beside an old page.
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
  const jsonTmp = `${json}.tmp`;
  const htmlTmp = `${html}.tmp`;
  try {
    // Derived once (exit reasons, MAE/MFE, breakdowns, periods), shown by both.
    const analysis = analyze(result);
    // Part by part: a long run's equity curve is megabytes of text, never held whole.
    const file = await open(jsonTmp, 'w');
    try {
      for (const part of reportJsonParts(result, analysis)) await file.write(part);
    } finally {
      await file.close();
    }
    await writeFile(htmlTmp, reportHtml(result, analysis));
  } catch (e) {
    await Promise.all([rm(jsonTmp, { force: true }), rm(htmlTmp, { force: true })]);
    throw e;
  }
  // Renames within a directory are atomic; the page goes last, so a page always has
  // its own JSON beside it.
  await rename(jsonTmp, json);
  await rename(htmlTmp, html);
  return { json, html };
}
