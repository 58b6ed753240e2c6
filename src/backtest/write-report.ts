import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { analyze } from './report/analysis.ts';
import { reportHtmlParts } from './report-html.ts';
import { reportJsonParts } from './report-json.ts';
import type { BacktestResult } from './run-backtest.ts';

/** Text gathered before a write: a few writes a megabyte rather than one a part. */
const WRITE_BYTES = 1 << 16;

/** Writes `parts` to `path` in order, about {@link WRITE_BYTES} at a time. */
async function writeParts(path: string, parts: Iterable<string>): Promise<void> {
  const file = await open(path, 'w');
  try {
    let pending = '';
    for (const part of parts) {
      pending += part;
      if (pending.length < WRITE_BYTES) continue;
      await file.write(pending);
      pending = '';
    }
    if (pending !== '') await file.write(pending);
  } finally {
    await file.close();
  }
}

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
    await writeParts(jsonTmp, reportJsonParts(result, analysis));
    await writeParts(htmlTmp, reportHtmlParts(result, analysis));
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
